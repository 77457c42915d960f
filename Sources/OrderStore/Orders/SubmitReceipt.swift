import OrderDomain

/// One receipt handed to the store, as a game server, a notification or an operator sent it.
public struct ReceiptSubmission: Sendable {
    public var orderId: String
    public var evidence: PurchaseEvidence
    public var claimedTransactionId: String?
    public var source: SubmissionSource
    public var idempotency: IdempotencyKey?

    public init(
        orderId: String, evidence: PurchaseEvidence, claimedTransactionId: String? = nil,
        source: SubmissionSource = .client, idempotency: IdempotencyKey? = nil
    ) {
        self.orderId = orderId
        self.evidence = evidence
        self.claimedTransactionId = claimedTransactionId
        self.source = source
        self.idempotency = idempotency
    }
}

/// A stored submission: its id (the first one's for a retried `Idempotency-Key`) and the
/// order as the commit left it.
public struct SubmittedReceipt: Sendable {
    public var id: Int64
    public var order: Order
}

extension Orders {
    /// R1: a receipt is persisted before anything else happens, so a crash or an Apple
    /// outage after this call never loses a paid receipt. The order moves from
    /// `pending_payment` to `receipt_received`; later submissions are kept as well.
    ///
    /// - Parameters:
    ///   - orderId: the order the game says this receipt pays for.
    ///   - evidence: the proof of payment as the app sent it: a base64 app receipt, a
    ///     StoreKit 2 signed transaction, or a Google Play purchase.
    ///   - claimedTransactionId: the transaction the app says it finished, if it says one;
    ///     picking (R6) prefers it.
    ///   - source: who sent it (the client, the game server, an operator).
    ///   - idempotency: the caller's key; the same key with the same request returns the
    ///     first submission's id.
    ///   - at: when it arrived.
    /// - Returns: the stored submission's id, for ``AppleAnswers/apply(orderId:submissionId:report:reopen:at:)``.
    /// - Throws: `StoreError/notFound(kind:id:)` for an unknown order,
    ///   `StoreError/emptyReceipt(orderId:)`, `StoreError/idempotencyMismatch(key:)`.
    ///
    /// ```swift
    /// let submission = try await store.orders.submit(orderId: "ord_1001", evidence: .appReceipt(base64Receipt))
    /// ```
    @discardableResult
    public func submit(
        orderId: String, evidence: PurchaseEvidence, claimedTransactionId: String? = nil,
        source: SubmissionSource = .client, idempotency: IdempotencyKey? = nil, at: Millis = .now()
    ) async throws -> Int64 {
        let submission = ReceiptSubmission(
            orderId: orderId, evidence: evidence, claimedTransactionId: claimedTransactionId,
            source: source, idempotency: idempotency)
        return try await store.write(as: .system, now: at) { tx in try await tx.submit(submission) }.id
    }

    /// A base64 app receipt (StoreKit 1): ``submit(orderId:evidence:claimedTransactionId:source:idempotency:at:)``
    /// with `.appReceipt(receiptData)`.
    @discardableResult
    public func submit(
        orderId: String, receiptData: String, claimedTransactionId: String? = nil,
        source: SubmissionSource = .client, idempotency: IdempotencyKey? = nil, at: Millis = .now()
    ) async throws -> Int64 {
        try await submit(
            orderId: orderId, evidence: .appReceipt(receiptData), claimedTransactionId: claimedTransactionId, source: source, idempotency: idempotency,
            at: at)
    }

    /// Group commit: many submissions in one write transaction, so one durable commit
    /// (one fsync) answers them all; their orders are read in one statement. An unknown
    /// order or a reused idempotency key fails that one alone (see `writeBatch`).
    public func submit(_ batch: [ReceiptSubmission], at: Millis = .now()) async throws -> [Result<SubmittedReceipt, any Error>] {
        let distinctOrders = Set(batch.map(\.orderId)).count == batch.count
        return try await store.writeBatch(
            batch, at: at,
            first: { tx in
                // PostgreSQL: two statements an item became one each for the batch.
                let hold = tx.database.dialect == .postgres && batch.count > 1 && distinctOrders && !tx.isolating
                try await tx.prefetchOrders(batch.map(\.orderId), holdingWrites: hold)
            }
        ) { tx, submission in
            try await tx.submit(submission)
        }
    }
}

extension WriteTransaction {
    func submit(_ submission: ReceiptSubmission) async throws -> SubmittedReceipt {
        let text = try submission.evidence.storedText
        guard !text.isEmpty else { throw StoreError.emptyReceipt(orderId: submission.orderId) }
        let orderId = submission.orderId
        var order = try await requireOrder(orderId)
        if let idempotency = submission.idempotency, let first = try await replayedSubmission(idempotency) {
            return SubmittedReceipt(id: first, order: order)
        }
        let play: PlaySubmission? = if case .googlePlay(let purchase) = submission.evidence { purchase } else { nil }
        let id = try await insertSubmission(
            for: orderId,
            [
                .text(orderId), .text(order.accountId), .text(submission.claimedTransactionId), .text(submission.source.rawValue), .text(text),
                .integer(now), .text(play?.purchaseToken), .text(submission.evidence.kind.rawValue),
            ])
        // A Google Play purchase submitted for an order names its store and package; an order
        // waiting for its payment learns them in the write that moves it on.
        let playPackage = play.flatMap {
            order.transactionId == nil && (order.marketplace != .googlePlay || order.app != $0.packageName) ? $0.packageName : nil
        }
        // Committed with the receipt: the worker owes it a verification, whatever happens next.
        enqueueAtCommit(.verify(orderId: orderId), dueAt: now)
        if let idempotency = submission.idempotency { try await remember(idempotency, submission: id) }
        guard order.state == .pendingPayment else {
            if let package = playPackage { order = try await paidInGooglePlay(order, package: package) }
            audit(.receiptReceived, target: .order(orderId), .submission(id: id, source: submission.source, whileIn: order.state))
            return SubmittedReceipt(id: id, order: order)
        }
        let decision = OrderRules.receiptReceived(order, submission: id, source: submission.source, paidInPackage: playPackage)
        return SubmittedReceipt(id: id, order: try await apply(decision, to: order))
    }

    /// An order a Google Play purchase is submitted for was paid in that package: the rules
    /// check Google's answer against it, and its events name the store.
    private func paidInGooglePlay(_ order: Order, package: String) async throws -> Order {
        try await sql.raw(
            "UPDATE orders SET marketplace = \(bind: Marketplace.googlePlay.rawValue), app = \(bind: package) WHERE order_id = \(bind: order.orderId)"
        ).run()
        var paid = order
        paid.marketplace = .googlePlay
        paid.app = package
        return paid
    }
}
