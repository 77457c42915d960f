import Logging
import OrderDomain
import OrderStore
import ServiceLifecycle

/// The store as a service of `serve`'s group: it looks at the database every few seconds,
/// so ``OrderStore/health`` (and with it `/readyz`) turns unreachable during an outage
/// even when no request comes, and back to ready as soon as the database answers; it logs
/// both turns once. It stops last; the store's owner (the `serve` command) closes the store.
struct StoreWatch: Service {
    let store: OrderStore
    let logger: Logger
    /// How often the database is looked at while it answers; while it does not, 4 × as often.
    var interval: Duration = .seconds(2)

    func run() async throws {
        var wasDown = false
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            _ = try? await store.jobs.status()
            // Reads may pass while writes fail (a read-only or full disk): try a write too.
            if store.health.current != nil, !store.isReadOnly { try? await store.checkWritable() }
            let outage = store.health.current
            if let outage, !wasDown {
                logger.error("the order store is unreachable", metadata: ["why": "\(outage.why)"])
            } else if outage == nil, wasDown {
                logger.notice("the order store answers again")
            }
            wasDown = outage != nil
            try? await gracefulShutdownOrSleep(wasDown ? interval / 4 : interval)
        }
    }

    /// Sleeps, or returns early when the group starts stopping.
    private func gracefulShutdownOrSleep(_ duration: Duration) async throws {
        try await cancelWhenGracefulShutdown { try await Task.sleep(for: duration) }
    }
}
