import OrderDomain
import SQLKit

/// What an account owns now, as the rules left it: the subscriptions R8 gave it (with
/// their status and end) and the lasting purchases delivered to it and not taken back.
public struct Entitlements: Sendable, Equatable {
    public struct Purchase: Sendable, Equatable {
        public var orderId: String
        public var productId: String
        public var type: ProductType
        public var grantedAt: Millis
    }

    public var accountId: String
    public var subscriptions: [Subscription]
    /// Non-consumables and non-renewing subscriptions with a live grant (consumables are
    /// used up in the game, so they are not entitlements).
    public var purchases: [Purchase]
}

extension Accounts {
    /// What `accountId` owns now: subscriptions it owns (R8) and live non-consumable grants.
    /// What the game asks when a player logs in on a new device.
    public func entitlements(_ accountId: String, limit: Int = 500) async throws -> Entitlements {
        try await store.read { sql in
            Entitlements(
                accountId: accountId,
                subscriptions: try await sql.rows(
                    """
                    SELECT \(unsafeRaw: Subscription.Column.list) FROM subscriptions WHERE owner_account = \(bind: accountId) ORDER BY original_transaction_id LIMIT \(literal: limit)
                    """
                ).map(Subscription.init(row:)),
                purchases: try await sql.rows(
                    """
                    SELECT g.order_id, o.product_id, p.type, g.granted_at FROM grants g
                    JOIN orders o ON o.order_id = g.order_id JOIN products p ON p.product_id = o.product_id
                    WHERE g.account_id = \(bind: accountId) AND g.revoked_at IS NULL AND p.type IN ('non_consumable', 'non_renewing')
                    ORDER BY g.granted_at LIMIT \(literal: limit)
                    """
                ).map { row in
                    Entitlements.Purchase(
                        orderId: try row.string("order_id"), productId: try row.string("product_id"),
                        type: try row.value("type", as: ProductType.self), grantedAt: try row.int64("granted_at"))
                })
        }
    }
}
