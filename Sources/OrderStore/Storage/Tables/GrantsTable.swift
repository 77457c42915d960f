import OrderDomain
import SQLKit

/// R11's table: a grant row is a delivery; a unique index allows one live grant per order.
extension WriteTransaction {
    /// Inserts the live grant and returns its id (for the audit entry that records it); nil
    /// when the order already has one.
    func insertGrant(_ order: Order, transactionId: String?, kind: GrantKind, reason: String?) async throws -> Int64? {
        try await sql.row(
            """
            INSERT INTO grants (order_id, account_id, transaction_id, kind, operator, reason, granted_at)
            VALUES (\(bind: order.orderId), \(bind: order.accountId), \(bind: transactionId), \(bind: kind.rawValue),
                    \(bind: actor.name), \(bind: reason), \(bind: now))
            ON CONFLICT DO NOTHING RETURNING id
            """)?.int64("id")
    }

    /// A hand delivery Apple has now confirmed names its purchase.
    func linkLiveGrant(orderId: String, transactionId: String) async throws {
        try await sql.raw(
            """
            UPDATE grants SET transaction_id = \(bind: transactionId) WHERE order_id = \(bind: orderId) AND revoked_at IS NULL
            """
        ).run()
    }

    /// Takes back the order's live grant: `reason` an operator's words, `why` a store's decision.
    func revokeLiveGrant(orderId: String, by who: String, reason: String? = nil, why: Why? = nil) async throws {
        try await sql.raw(
            """
            UPDATE grants SET revoked_at = \(bind: now), revoked_by = \(bind: who), revoke_reason = \(bind: reason), revoke_why = \(bind: try why?.json())
            WHERE order_id = \(bind: orderId) AND revoked_at IS NULL
            """
        ).run()
    }

    /// Who holds the live grant, for the R11 loser's message.
    func liveGrant(orderId: String) async throws -> (by: String, at: Millis)? {
        guard let row = try await sql.row("SELECT operator, granted_at FROM grants WHERE order_id = \(bind: orderId) AND revoked_at IS NULL") else {
            return nil
        }
        return (try row.string("operator"), try row.int64("granted_at"))
    }
}
