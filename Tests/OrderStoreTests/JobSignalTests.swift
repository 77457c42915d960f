import Foundation
import Logging
import OrderDomain
import OrderStore
import TestSupport
import Testing

/// The in-process wake-up of idle workers (`OrderStore.jobsDue`).
@Suite("Job signal")
struct JobSignalTests {
    @Test("A commit that makes a job due ends a worker's idle wait at once; one that does not, and no commit, leave it to its timeout")
    func wakes() async throws {
        try await withStore(.sqlite) { store in
            try await store.orders.place(orderId: "sig-1", accountId: "p-sig", productId: "coins_60")
            // Placing an order owes no job: the wait runs to its timeout.
            var mark = store.jobsDue.mark
            try await store.orders.place(orderId: "sig-2", accountId: "p-sig", productId: "coins_60")
            var start = ContinuousClock.now
            await store.jobsDue.wait(since: mark, upTo: .milliseconds(200))
            #expect(ContinuousClock.now - start >= .milliseconds(190))

            // A receipt stored owes a verification now: a waiter is woken.
            // Timed from the commit, not from the wait's start: on a loaded CI machine the write
            // itself has taken seconds, and the waiter is right to wait for it.
            let before = store.jobsDue.mark
            let waiter = Task { () -> ContinuousClock.Instant in
                await store.jobsDue.wait(since: before, upTo: .seconds(30))
                return ContinuousClock.now
            }
            try #require(await Self.waiterBegan(store.jobsDue), "the waiter waits before the commit")
            _ = try await store.orders.submit(orderId: "sig-1", receiptData: "r")
            let committed = ContinuousClock.now
            #expect(await waiter.value - committed < .seconds(2), "woken by the commit, not by the 30 s timeout")

            // A commit between the mark and the wait is not missed.
            mark = store.jobsDue.mark
            _ = try await store.orders.submit(orderId: "sig-2", receiptData: "r")
            start = ContinuousClock.now
            await store.jobsDue.wait(since: mark, upTo: .seconds(10))
            #expect(ContinuousClock.now - start < .seconds(1))
        }
    }

    /// Two stores on one database stand for two processes: an intake-only `serve` that
    /// stores a receipt and a worker elsewhere that should start on it at once, also after
    /// the database restarted under the listener.
    @Test("PostgreSQL: a job another process commits wakes this process's waiting worker (LISTEN/NOTIFY), also after a restart", .needsPostgres, .takesTurns)
    func wakesAcrossProcesses() async throws {
        // Stopped by its watchdog when the test process ends, whatever happens here.
        let server = try await PostgresServer.dedicated()
        let location = StoreLocation.postgres(url: try await server.freshDatabaseURL())
        let writer = try await OrderStore.open(location, settings: .test)
        let worker = try await OrderStore.open(location, settings: .test)
        for product in TestCatalogue.all { try await writer.catalogue.upsert(product) }
        let listener = Task { await worker.listenForJobs(logger: Logger(label: "test")) }

        /// How long the worker's wait took after the other store stored a receipt for `order`
        /// (or, `notified`, Apple's notification about it: one statement of its own).
        func wakeUp(_ order: String, notified: Bool = false) async throws -> Duration {
            try await writer.orders.place(orderId: order, accountId: "p-\(order)", productId: "coins_60")
            try await Task.sleep(for: .milliseconds(300))  // the listener has caught up with earlier wake-ups
            let mark = worker.jobsDue.mark
            let waiter = Task { () -> ContinuousClock.Instant in
                await worker.jobsDue.wait(since: mark, upTo: .seconds(20))
                return ContinuousClock.now
            }
            try #require(await Self.waiterBegan(worker.jobsDue), "the worker waits before the other store's commit")
            if notified {
                let facts = NotificationFacts(
                    uuid: "u-\(order)", type: "REFUND_DECLINED", signedDate: t0, environment: "Production", transaction: tx(order, at: t0))
                let stored = try await writer.notifications.receive(all: [
                    IncomingNotification(endpoint: .production, via: .receiver, raw: "r", rejection: nil, facts: facts)
                ])
                #expect(stored.count == 1 && (try? stored[0].get()) != nil)
            } else {
                _ = try await writer.orders.submit(orderId: order, receiptData: "r")
            }
            let committed = ContinuousClock.now
            return await waiter.value - committed
        }

        /// The worker's LISTEN is in place (its connection's last statement), so a commit now is heard.
        func listening() async throws -> Bool {
            try await server.psql("SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'").trimmingCharacters(in: .whitespacesAndNewlines) != "0"
        }
        #expect(try await eventually(within: 20) { try await listening() })
        let first = try await wakeUp("x-1")
        #expect(first < .seconds(2), "woken by the other store's commit in \(first), not by the 20 s timeout")
        let byNotification = try await wakeUp("x-n", notified: true)
        #expect(byNotification < .seconds(2), "woken by the other store's notification in \(byNotification)")
        try await server.stop(.fast)
        try await server.start()
        // The writer's pool and the listener both reconnect; the listener retries each second.
        _ = try await eventually(within: 20) { (try? await writer.orders.find("x-1")) != nil }
        #expect(try await eventually(within: 20) { (try? await listening()) == true }, "the listener is back")
        let afterRestart = try await wakeUp("x-2")
        #expect(afterRestart < .seconds(2), "after the restart, woken in \(afterRestart)")

        listener.cancel()
        await listener.value
        await writer.close()
        await worker.close()
        try? await server.stop(.immediate)
    }

    /// Whether a wait on `signal` began within ten seconds (checked, not slept for).
    static func waiterBegan(_ signal: JobSignal) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while signal.waiting == 0, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(2)) }
        return signal.waiting > 0
    }
}
