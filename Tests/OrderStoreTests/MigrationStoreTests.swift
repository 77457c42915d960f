import Foundation
import SQLKit
import TestSupport
import Testing

@testable import OrderStore

/// Stores made by an earlier iapdesk open in place: each migration is tried on a store that
/// has data, not only on an empty one.
@Suite("Store: migrating a store in place")
struct MigrationStoreTests {
    /// Undoes migrations 11 and later as exactly as SQL can: the schema an iapdesk before
    /// issue 29 left (versions up to 10).
    static func schemaBeforeIssue29(_ d: Dialect) -> [String] {
        var statements = [
            "ALTER TABLE products DROP COLUMN gives",
            "DROP INDEX orders_by_app",
            "DROP INDEX orders_by_app_state",
            "DROP INDEX products_by_app",
            "ALTER TABLE orders DROP COLUMN app",
            "ALTER TABLE products DROP COLUMN app",
            "ALTER TABLE notifications DROP COLUMN app",
            "DROP TABLE apps",
            "ALTER TABLE transactions DROP COLUMN storefront",
            "DROP TABLE apple_order_ids",
            "ALTER TABLE products DROP COLUMN subscription_group",
            "ALTER TABLE products DROP COLUMN group_level",
            "ALTER TABLE products DROP COLUMN duration_days",
            "ALTER TABLE products DROP COLUMN retired_at",
            "DROP TABLE mass_extensions",
            "DROP INDEX grants_by_time",
            "DROP INDEX transactions_by_cancellation",
            "DROP TABLE notes",
            "DROP TABLE consumption_reports",
            "DROP TABLE subscription_extensions",
            "DROP TABLE refund_answers",
            "DROP INDEX notifications_refund_requests",
            "DROP INDEX transactions_by_app_transaction",
            "ALTER TABLE transactions DROP COLUMN refunded_share",
            "ALTER TABLE transactions DROP COLUMN share_taken_back",
            "ALTER TABLE transactions DROP COLUMN app_transaction_id",
        ]
        if d == .postgres {
            statements.append("ALTER TABLE subscriptions ALTER COLUMN owner_account SET NOT NULL")
        } else {
            statements += [
                """
                CREATE TABLE subscriptions_v10 (original_transaction_id TEXT PRIMARY KEY, owner_account TEXT NOT NULL,
                  product_id TEXT NOT NULL, status TEXT NOT NULL, auto_renew BIGINT NOT NULL, expires_at BIGINT,
                  owner_since BIGINT NOT NULL, decided_by TEXT NOT NULL, updated_at BIGINT NOT NULL, facts_as_of BIGINT, facts_source TEXT)
                """,
                "INSERT INTO subscriptions_v10 SELECT * FROM subscriptions",
                "DROP TABLE subscriptions",
                "ALTER TABLE subscriptions_v10 RENAME TO subscriptions",
                "CREATE INDEX subscriptions_by_owner ON subscriptions (owner_account, original_transaction_id)",
                "CREATE INDEX subscriptions_by_expiry ON subscriptions (expires_at, original_transaction_id) WHERE expires_at IS NOT NULL",
            ]
        }
        return statements + ["DELETE FROM schema_migrations WHERE version >= 11"]
    }

    @Test(
        "A store from before issue 29 migrates in place: its subscriptions keep their owners, one may now have none, and every index is there",
        arguments: Backend.all)
    func issue29(backend: Backend) async throws {
        let location = try await backend.freshLocation()
        defer { Backend.cleanUp(location) }
        let old = try await OrderStore.open(location, settings: .test)
        try await old.db.sql.raw(
            """
            INSERT INTO subscriptions (original_transaction_id, owner_account, product_id, status, auto_renew, expires_at, owner_since,
              decided_by, updated_at, facts_as_of, facts_source)
            VALUES ('1000000001', 'acct-a', 'vip_monthly', 'active', 1, 1790000000000, 1, 'rule', 1, 1, 'notification')
            """
        ).run()
        try await old.upsertProduct(Product(productId: "coins_60", type: .consumable, displayName: "60 coins", priceMinor: 600, currency: "CNY"))
        try await old.placeOrder(orderId: "m-1", accountId: "acct-a", productId: "coins_60")
        for statement in Self.schemaBeforeIssue29(old.dialect) { try await old.db.sql.raw(SQLQueryString(statement)).run() }
        await old.close()

        let store = try await OrderStore.open(location, settings: .test)
        #expect(try await store.subscription("1000000001").subscription?.ownerAccount == "acct-a", "an owner survives the copy")
        // Issue 31: a store of one app serves it still, and what it holds is that app's.
        #expect(try await store.apps().map(\.app.bundleId) == [store.settings.bundleId])
        #expect(try await store.product("coins_60")?.app == store.settings.bundleId)
        #expect(try await store.order("m-1")?.app == store.settings.bundleId)
        #expect(try await store.orders(OrderFilter(app: store.settings.bundleId)).items.map(\.orderId) == ["m-1"])
        try await store.db.sql.raw(
            """
            INSERT INTO subscriptions (original_transaction_id, owner_account, product_id, status, auto_renew, owner_since, decided_by, updated_at)
            VALUES ('1000000002', NULL, 'vip_monthly', 'active', 1, 1, 'apple', 1)
            """
        ).run()
        #expect(try await store.subscription("1000000002").subscription?.ownerAccount == nil)
        #expect(try await Migrations.restoreMissingIndexes(on: store.db) == [], "the copied table has its indexes")
        let versions = try await store.db.sql.rows("SELECT version FROM schema_migrations").map { try $0.int("version") }
        #expect(versions.max() == Migrations.all(store.dialect).count)
        await store.close()
    }
}
