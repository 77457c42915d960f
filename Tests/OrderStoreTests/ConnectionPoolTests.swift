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
}
