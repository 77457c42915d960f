import OrderDomain
import SQLKit

/// Flags on an account an operator should see (a replay, two deliveries for one purchase).
extension WriteTransaction {
    /// Flags the order's account, keeping the decision that raised the flag.
    func flagAccount(_ order: Order, _ flag: AccountFlagKind, because why: Why) async throws {
        try await sql.raw(
            """
            INSERT INTO account_flags (account_id, flag, order_id, detail, why, at)
            VALUES (\(bind: order.accountId), \(bind: flag.rawValue), \(bind: order.orderId), '', \(bind: try why.json()), \(bind: now))
            """
        ).run()
    }
}
