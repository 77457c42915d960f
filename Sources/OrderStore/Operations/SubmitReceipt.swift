/// Where a receipt came from.
public enum SubmissionSource: String, Sendable, Codable {
    case client, notification, `operator`
}

extension OrderStore {
    /// R1: a receipt is persisted before anything else happens, so a crash or an Apple
    /// outage after this call never loses a paid receipt. The order moves from
    /// `pending_payment` to `receipt_received`; later submissions are kept as well.
    @discardableResult
    public func submitReceipt(
        orderId: String, receiptData: String, claimedTransactionId: String? = nil,
        source: SubmissionSource = .client, idempotency: IdempotencyKey? = nil, at: Millis = .now()
    ) async throws -> Int64 {
        guard !receiptData.isEmpty else { throw StoreError.invalid("empty receipt for order \(orderId)") }
        return try await write(as: .system, now: at) { tx in
            if let idempotency, let first = try await tx.replayedSubmission(idempotency) { return first }
            let order = try await tx.sql.requireOrder(orderId)
            guard let row = try await tx.sql.row("""
                INSERT INTO receipt_submissions (order_id, account_id, claimed_transaction_id, source, receipt_data, received_at)
                VALUES (\(bind: orderId), \(bind: order.accountId), \(bind: claimedTransactionId), \(bind: source.rawValue),
                        \(bind: receiptData), \(bind: at))
                RETURNING id
                """) else { throw StoreError.corrupt("submission insert returned no id") }
            let id = try row.int64("id")
            // Committed with the receipt: the worker owes it a verification, whatever happens next.
            try await tx.enqueue(.verify, subject: orderId, dueAt: at)
            if let idempotency { try await tx.remember(idempotency, submission: id) }
            if order.state == .pendingPayment {
                var next = order
                next.state = .receiptReceived
                try await tx.save(next, previous: order, action: "receipt.received", detail: "submission \(id) from \(source.rawValue)")
            } else {
                tx.audit("receipt.received", target: "order:\(orderId)", detail: "submission \(id) from \(source.rawValue) while \(order.state.rawValue)")
            }
            return id
        }
    }
}
