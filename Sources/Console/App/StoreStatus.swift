import OrderDomain
import OrderStore
import Presentation

/// What every screen's header and banner say about the store and the world around it:
/// the counts, the workers, and whatever needs a person now (the store out of reach, Apple
/// failing, the game's endpoint failing, orders waiting for an operator).
struct StoreStatus {
    private(set) var counts: StoreCounts?
    private(set) var workers: WorkerStatus?
    /// Orders waiting for a person (a wrong secret, an exhausted schedule), largest group first.
    private var alerts: [OperatorAlert] = []
    private var outage: AppleOutage?
    /// The store out of reach (a database restart, a full disk): the screens keep what they
    /// read last, and the next refresh that reaches the store clears it.
    private var storeOutage: StoreOutage?
    private var gameOutage: GameEndpointOutage?

    /// Reads it all again. When the store cannot be reached, what was read last stays and
    /// the outage is the banner; any other error is thrown for the message bar.
    mutating func refresh(_ session: ConsoleSession, thenLoad screen: any ConsoleScreen) async throws {
        do {
            let now = session.clock()
            counts = try await session.store.reports.counts(now: now)
            alerts = try await session.store.reports.operatorAlerts(limit: 3)
            outage = try await session.store.apple.outage(counts: counts, now: now)
            gameOutage = try await session.store.outbox.endpointOutage(counts: counts, now: now)
            workers = try await session.store.workerStatus(now: now)
            try await screen.load(session)
            storeOutage = nil
        } catch {
            storeOutage = session.store.health.current
            if storeOutage == nil { throw error }
        }
    }

    /// The store out of reach, else Apple failing now, else the game's endpoint failing,
    /// else the largest group of orders waiting for a person; shown until it is over or fixed.
    var banner: (text: String, isError: Bool)? {
        if let storeOutage { return ("⚠ " + storeOutage.banner, true) }
        if let outage { return ("⚠ " + outage.banner, true) }
        if let gameOutage { return ("⚠ " + gameOutage.banner + " (:undelivered)", true) }
        guard let first = alerts.first else { return nil }
        let more = alerts.count > 1 ? " (+\(alerts.count - 1) more reasons, :stuck)" : ""
        return ("⚠ " + first.banner + more, true)
    }
}
