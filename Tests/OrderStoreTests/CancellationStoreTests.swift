import Foundation
import OrderDomain
import TestSupport
import Testing

@testable import OrderStore

/// A console job or a CLI run can be cancelled at any await. A transaction cut off that
/// way must leave nothing half-written behind, and the store's one connection must come
/// out of it ready for the next write.
@Suite("Writes under task cancellation")
struct CancellationStoreTests {
    @Test("A write cancelled half-way rolls back whole; the next write works", arguments: Backend.all)
    func cancelledMidTransaction(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await store.orders.place(orderId: "kept", accountId: "a", productId: "coins_60", at: t0)
            let auditBefore = try await store.audit.verify()
            let (started, signal) = AsyncStream<Void>.makeStream()
            let task = Task {
                try await store.write(as: .system) { tx in
                    try await tx.sql.raw("UPDATE orders SET account_id = 'half-done' WHERE order_id = 'kept'").run()
                    tx.audit(.noteAdd, target: .order("kept"))
                    signal.yield()
                    try await Task.sleep(for: .seconds(60))
                }
            }
            for await _ in started { break }
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }

            #expect(try await store.orders.find("kept")?.accountId == "a")
            #expect(try await store.audit.verify() == auditBefore)  // intact, and no half entry
            try await store.orders.place(orderId: "after", accountId: "b", productId: "coins_60", at: t0 + 1)
            #expect(try await store.orders.find("after")?.state == .pendingPayment)
            #expect(try await store.reports.counts().total == 2)
        }
    }

    /// A request's budget (`CallBudget`) that runs out inside a transaction fails the next
    /// statement before it is sent: the server saw no error, so the transaction is still
    /// open and healthy. Rolled back under the spent budget, the ROLLBACK was refused too,
    /// and the next caller's BEGIN and COMMIT on that connection committed the half.
    @Test("A write whose call budget runs out half-way rolls back whole; the next write on that connection commits only its own", .needsPostgres)
    func budgetSpentMidTransaction() async throws {
        var settings = StoreSettings.test
        settings.postgresConnections = 1  // the next write surely takes the same connection
        try await withStore(.postgres, settings: settings) { store in
            try await store.orders.place(orderId: "kept", accountId: "a", productId: "coins_60", at: t0)
            await #expect(throws: StoreError.self) {
                try await CallBudget.within(.milliseconds(300)) {
                    try await store.write(as: .system) { tx in
                        try await tx.sql.raw("UPDATE orders SET account_id = 'half-done' WHERE order_id = 'kept'").run()
                        try await Task.sleep(for: .milliseconds(500))
                        try await tx.sql.raw("SELECT 1").run()  // the budget is spent: refused
                    }
                }
            }
            try await store.orders.place(orderId: "after", accountId: "b", productId: "coins_60", at: t0 + 1)
            #expect(try await store.orders.find("kept")?.accountId == "a", "the half-done write was not committed by the next one")
            #expect(try await store.reports.counts().total == 2)
        }
    }

    /// The deadline closes the connection whose statement it ended, and the driver reports it
    /// closed a moment later: in between, the pool handed that connection to the next write,
    /// which was refused at once ("closed after a statement missed its deadline"; seen once
    /// in a full run under load). The pool now drops such a connection as soon as it expired.
    @Test("A statement that misses its deadline costs only its own write: the next one at once gets a connection that works", .needsPostgres)
    func nextWriteAfterMissedDeadline() async throws {
        var settings = StoreSettings.test
        settings.postgresConnections = 1  // the next write would take the same connection
        try await withStore(.postgres, settings: settings) { store in
            for round in 0..<5 {
                await #expect(throws: StoreError.self) {
                    try await CallBudget.within(.milliseconds(100)) {
                        try await store.write(as: .system) { tx in try await tx.sql.raw("SELECT pg_sleep(2)").run() }
                    }
                }
                try await store.orders.place(orderId: "after-\(round)", accountId: "b", productId: "coins_60", at: t0 + Millis(round))
            }
            #expect(try await store.reports.counts().total == 5)
        }
    }

    @Test("Writes cancelled while queued behind another either happen whole or not at all", arguments: Backend.all)
    func cancelledWhileQueued(backend: Backend) async throws {
        try await withStore(backend) { store in
            let writers = (0..<20).map { n in
                Task { try await store.orders.place(orderId: "o\(n)", accountId: "a", productId: "coins_60", at: t0 + Millis(n)) }
            }
            for writer in writers.enumerated() where writer.offset % 2 == 1 { writer.element.cancel() }
            var placed = Set<String>()
            for (n, writer) in writers.enumerated() {
                if case .success = await writer.result { placed.insert("o\(n)") }
            }
            let stored = Set(try await store.orders.page(limit: 100).items.map(\.orderId))
            #expect(stored == placed)
            #expect(try await store.reports.counts().total == placed.count)
            guard case .intact = try await store.audit.verify() else { Issue.record("the audit chain broke"); return }
            try await store.orders.place(orderId: "last", accountId: "a", productId: "coins_60", at: t0 + 100)
            #expect(try await store.orders.find("last") != nil)
        }
    }
}
