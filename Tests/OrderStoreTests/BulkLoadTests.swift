import OrderDomain
import SQLKit
import SyntheticData
import TestSupport
import Testing

@_spi(BulkLoad) @testable import OrderStore

/// A bulk load builds its indexes, and on PostgreSQL the keys of the tables it starts empty,
/// once at the end: what those keys forbid must still fail the whole load, and the store
/// must come out of any load with every index and key it went in with.
@Suite("Bulk load")
struct BulkLoadTests {
    @Test(
        "A load whose rows repeat an order id fails whole: the store stays empty with every index and key it had; a load without the duplicate then succeeds and keeps them too",
        arguments: Backend.all)
    func duplicateFailsWhole(backend: Backend) async throws {
        try await withStore(backend) { store in
            let before = try await Self.indexesAndKeys(store)
            #expect(before.contains("orders_by_state") && before.contains(where: { $0.hasPrefix("orders_") }))
            let now = Millis.now()
            await #expect(throws: (any Error).self) {
                try await store.bulkLoad(products: [], listedAt: now, at: now) { loader in
                    var rows = BulkRows()
                    rows.orders = [Self.order("twice", at: now), Self.order("twice", at: now)]
                    try await loader.write(rows)
                    return (BulkLoadResult(orders: 2, stateCounts: [.pendingPayment: 2], audit: loader.audit), ())
                }
            }
            #expect(try await store.reports.counts().total == 0)
            #expect(try await Self.indexesAndKeys(store) == before, "the failed load put back every index and key")
            // One such row loads (the load is then abandoned): the duplicate is what failed.
            struct Abandoned: Error {}
            await #expect(throws: Abandoned.self) {
                try await store.bulkLoad(products: [], listedAt: now, at: now) { loader -> (BulkLoadResult, Void) in
                    var rows = BulkRows()
                    rows.orders = [Self.order("once", at: now)]
                    try await loader.write(rows)
                    throw Abandoned()
                }
            }
            #expect(try await store.reports.counts().total == 0)

            let summary = try await SyntheticStore(orders: 500, anchor: now).write(into: store)
            #expect(try await store.reports.counts().total == Int64(summary.orders))
            #expect(try await Self.indexesAndKeys(store) == before, "the load built every index and key again")
            // The keys hold again: a second order with a seeded id is refused.
            let seeded = try #require(try await store.orders.page(OrderFilter(), limit: 1).items.first)
            await #expect(throws: (any Error).self) {
                try await store.read { sql in
                    try await sql.raw(
                        "INSERT INTO orders (order_id, account_id, product_id, quantity, created_at, state, state_changed_at, version, updated_by) VALUES (\(bind: seeded.orderId), 'a', 'coins_60', 1, 0, 'pending_payment', 0, 1, 'x')"
                    ).run()
                }
            }
        }
    }

    /// An order placed and not yet paid, as the bulk layout lists its columns.
    private static func order(_ id: String, at now: Millis) -> BulkRows.Values {
        [
            id, "acct", "coins_60", 1, now, OrderState.pendingPayment.rawValue, now, 1, "system",
            String?.none, String?.none, String?.none, String?.none, 0, Int64?.none, Int64?.none, String?.none, String?.none, 0, 0, "com.example.game",
            Marketplace.appStore.rawValue,
        ]
    }

    /// Every index and every key or unique constraint in the store's schema, by name.
    private static func indexesAndKeys(_ store: OrderStore) async throws -> [String] {
        try await store.read { sql in
            let query: SQLQueryString =
                store.dialect == .sqlite
                ? "SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name"
                : """
                SELECT name FROM (
                    SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema()
                    UNION ALL
                    SELECT conname FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
                    WHERE t.relnamespace = current_schema()::regnamespace AND c.contype IN ('p', 'u')
                ) AS everything ORDER BY name
                """
            return try await sql.rows(query).map { try $0.string("name") }
        }
    }
}
