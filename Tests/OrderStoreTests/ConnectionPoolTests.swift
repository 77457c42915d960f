import Foundation
import OrderDomain
import SQLKit
import TestSupport
import Testing

@testable import OrderStore

/// PostgreSQL transactions of one process run side by side on several connections; SQLite
/// keeps its one.
@Suite("Connections")
struct ConnectionPoolTests {
    @Test("Sixteen slow reads at once: PostgreSQL runs them side by side on up to its limit of connections; SQLite one at a time", arguments: Backend.all)
    func sideBySide(backend: Backend) async throws {
        var settings = StoreSettings.test
        settings.postgresConnections = 4
        try await withStore(backend, settings: settings) { store in
            let sleep: SQLQueryString = backend == .postgres ? "SELECT pg_sleep(0.2)" : "SELECT 1"
            // When each read held its connection; overlaps, not elapsed time, so a loaded
            // machine cannot fail the test.
            let spans = try await withThrowingTaskGroup(of: (ContinuousClock.Instant, ContinuousClock.Instant).self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        try await store.read { sql in
                            let start = ContinuousClock.now
                            try await sql.raw(sleep).run()
                            return (start, ContinuousClock.now)
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let most = spans.map { span in spans.filter { $0.0 <= span.0 && span.0 < $0.1 }.count }.max() ?? 0
            let open = await store.pool.openCount
            if backend == .postgres {
                #expect(open == 4, "opened \(open) connections for 16 reads with a limit of 4")
                #expect(most > 1 && most <= 4, "\(most) reads at once")
            } else {
                #expect(open == 1 && most == 1, "\(open) connections, \(most) reads at once")
            }
        }
    }

    @Test("A burst of writes on PostgreSQL's several connections: every order placed once, counters exact", arguments: Backend.all)
    func concurrentWrites(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<200 {
                    group.addTask { try await store.orders.place(orderId: "o\(index)", accountId: "a\(index % 7)", productId: "coins_60") }
                }
                try await group.waitForAll()
            }
            #expect(try await store.reports.counts().byState[.pendingPayment] == 200)
            #expect(try await store.orders.page(limit: 500).items.count == 200)
            if case .broken(let seq, let why) = try await store.audit.verify() { Issue.record("audit chain broken at \(seq): \(why)") }
        }
    }

    @Test(
        "A caller answering a client (an acknowledgement, a 202) gets the next connection before background callers that waited longer", arguments: Backend.all)
    func answeringGoesFirst(backend: Backend) async throws {
        var settings = StoreSettings.test
        settings.postgresConnections = 1
        try await withStore(backend, settings: settings) { store in
            let gate = Gate()
            let order = Turns()
            let holder = Task { try await store.read { _ in await gate.wait() } }
            while await !gate.isWaited { try await Task.sleep(for: .milliseconds(2)) }
            var callers: [Task<Void, any Error>] = []
            for name in ["worker 1", "worker 2", "worker 3"] {
                callers.append(Task { try await store.read { _ in await order.take(name) } })
                while await store.pool.waitingCount < callers.count { try await Task.sleep(for: .milliseconds(2)) }
            }
            callers.append(Task { try await CallPriority.answering { try await store.read { _ in await order.take("acknowledgement") } } })
            while await store.pool.waitingCount < callers.count { try await Task.sleep(for: .milliseconds(2)) }
            await gate.open()
            try await holder.value
            for caller in callers { try await caller.value }
            #expect(await order.taken == ["acknowledgement", "worker 1", "worker 2", "worker 3"])
        }
    }
}

/// Holds a caller until opened.
private actor Gate {
    private var waiter: CheckedContinuation<Void, Never>?
    private var opened = false
    var isWaited: Bool { waiter != nil }

    func wait() async {
        guard !opened else { return }
        await withCheckedContinuation { waiter = $0 }
    }

    func open() {
        opened = true
        waiter?.resume()
        waiter = nil
    }
}

/// The order in which callers got the connection.
private actor Turns {
    private(set) var taken: [String] = []
    func take(_ name: String) { taken.append(name) }
}
