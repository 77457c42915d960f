import OrderDomain
import SQLKit

/// What claiming a purchase's keys (R7) came to.
enum ClaimResult: Equatable {
    /// Every key was free, or already this order's.
    case claimed
    /// The account that holds the purchase restored it under a new order: no replay, and
    /// the holder keeps its keys.
    case restore(holderOrder: String)
    /// Another order holds a key; this order took none.
    case replay(holderOrder: String, holderAccount: String, key: String)

    /// The order that holds the purchase, for a replay.
    var replayHolder: PurchaseHolder? {
        guard case .replay(let order, let account, let key) = self else { return nil }
        return PurchaseHolder(order: order, account: account, key: key)
    }
}

/// R7's table: one row per purchase key; its primary key is the guard.
extension WriteTransaction {
    /// Inserts the purchase's keys for `order`. A key held by another order of the same
    /// account is a restore for entitlements that a restore may repeat (non-consumables,
    /// auto-renewables); any other held key is a replay, and this order's new keys are given
    /// back so nothing half-done stays.
    func claim(_ transaction: AppleTransaction, type: ProductType, for order: Order) async throws -> ClaimResult {
        var taken: [String] = []
        var restoredFrom: String?
        for key in ReplayKeys.keys(for: transaction, type: type) {
            let inserted = try await sql.row(
                """
                INSERT INTO claims (claim_key, order_id, account_id, transaction_id, at)
                VALUES (\(bind: key), \(bind: order.orderId), \(bind: order.accountId), \(bind: transaction.transactionId), \(bind: now))
                ON CONFLICT (claim_key) DO NOTHING RETURNING claim_key
                """)
            if inserted != nil {
                taken.append(key)
                continue
            }
            guard let holder = try await claimHolder(key), holder.order != order.orderId else { continue }
            if holder.account == order.accountId, ReplayKeys.restorable(type) {
                restoredFrom = holder.order
                continue
            }
            for mine in taken { try await sql.raw("DELETE FROM claims WHERE claim_key = \(bind: mine)").run() }
            return .replay(holderOrder: holder.order, holderAccount: holder.account, key: key)
        }
        if let restoredFrom { return .restore(holderOrder: restoredFrom) }
        try await sql.raw(
            """
            UPDATE transactions SET order_id = \(bind: order.orderId), submitted_by = \(bind: order.accountId)
            WHERE transaction_id = \(bind: transaction.transactionId)
            """
        ).run()
        return .claimed
    }

    /// Whether another order already holds any key of `transaction` (R6 passes such a purchase over).
    func heldByAnother(_ transaction: AppleTransaction, type: ProductType, order: Order) async throws -> Bool {
        for key in ReplayKeys.keys(for: transaction, type: type) {
            if let holder = try await claimHolder(key), holder.order != order.orderId { return true }
        }
        return false
    }

    private func claimHolder(_ key: String) async throws -> (order: String, account: String)? {
        guard let row = try await sql.row("SELECT order_id, account_id FROM claims WHERE claim_key = \(bind: key)") else { return nil }
        return (try row.string("order_id"), try row.string("account_id"))
    }
}
