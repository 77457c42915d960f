import OrderDomain
import SQLKit

/// Flags on an account an operator should see (a replay, two deliveries for one purchase).
extension WriteTransaction {
    func flagAccount(_ order: Order, _ flag: AccountFlagKind, detail: String) async throws {
        try await sql.raw(
            """
            INSERT INTO account_flags (account_id, flag, order_id, detail, at)
            VALUES (\(bind: order.accountId), \(bind: flag.rawValue), \(bind: order.orderId), \(bind: detail), \(bind: now))
            """
        ).run()
    }
}
