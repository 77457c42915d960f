import OrderDomain
import SQLKit

extension OrderStore {
    /// R9 for part of a pack: Apple refunded `share` of a purchase (`REFUND_PRORATED`, in
    /// thousandths of a percent), and the game is told to take back what that share adds
    /// to what it was told before — or, when a reversal brings the share to 0, to give it
    /// back. The share told is kept on the transaction, so Apple's retries and an
    /// operator's replay take nothing twice. The order stays delivered: the rest is the
    /// player's. Nil when no order claims the transaction.
    func settleRefundedShare(_ tx: WriteTransaction, transactionId: String, share: Int) async throws -> NotificationDetail? {
        guard let orderId = try await tx.storedTransaction(transactionId)?.orderId else { return nil }
        let order = try await tx.requireOrder(orderId)
        guard order.state == .delivered else { return .shareOfUndelivered(orderId: orderId, state: order.state) }
        let told = try await tx.shareTakenBack(transactionId)
        guard share != told else { return .shareToldAlready(orderId: orderId) }
        let units = { (thousandths: Int) in order.quantity * thousandths / 100_000 }
        let change = PartialShare(thousandths: abs(share - told), units: abs(units(share) - units(told)))
        try await tx.setShareTakenBack(transactionId, share)
        tx.audit(
            .partialRefund, target: .order(orderId),
            .partialRefund(transactionId: transactionId, share: change.thousandths, takesBack: share > told, units: change.units, of: order.quantity))
        try await tx.recordEvent(share > told ? .partiallyRefunded : .refundReversed, order: order, share: change)
        return .shareTold(orderId: orderId, takesBack: share > told, share: change.thousandths, units: change.units, of: order.quantity)
    }
}

extension WriteTransaction {
    /// The share of a purchase the game was last told to take back (0 when none).
    func shareTakenBack(_ transactionId: String) async throws -> Int {
        try await sql.row("SELECT share_taken_back FROM transactions WHERE transaction_id = \(bind: transactionId)")?.optionalInt("share_taken_back") ?? 0
    }

    func setShareTakenBack(_ transactionId: String, _ share: Int) async throws {
        try await sql.raw("UPDATE transactions SET share_taken_back = \(bind: share) WHERE transaction_id = \(bind: transactionId)").run()
    }

    /// The game accounts whose verified purchases carry `appTransactionId`: the accounts
    /// one Apple Account played in this app.
    func accounts(ofAppTransaction appTransactionId: String) async throws -> [String] {
        try await sql.rows(
            """
            SELECT DISTINCT o.account_id FROM transactions t JOIN orders o ON o.order_id = t.order_id
            WHERE t.app_transaction_id = \(bind: appTransactionId) ORDER BY o.account_id
            """
        ).map { try $0.string("account_id") }
    }
}
