import Foundation
import OrderDomain

extension OrderStore {
    /// The call and its recording, for a caller that holds the order's verify job (the
    /// worker, under its lease; `reverify`, under its claim, released with the answer).
    /// The actor's role was checked by the caller.
    func askApple(orderId: String, using verifier: any ReceiptVerifier, by actor: Operator, releasingClaimOf owner: String? = nil) async throws
        -> VerificationOutcome
    {
        let (order, submission) = try await read { sql in
            let order = try await sql.requireOrder(orderId)
            return (
                order,
                try await sql.row(
                    """
                    SELECT id, receipt_data, kind, claimed_transaction_id FROM receipt_submissions
                    WHERE order_id = \(bind: orderId) ORDER BY id DESC LIMIT 1
                    """)
            )
        }
        if !actor.isSystem, let refusal = OrderPermissions.reverifyRefusal(order, role: actor.role) { throw refusal }
        guard let submission else { throw StoreError.noReceipt(orderId: orderId) }
        // The transaction Apple confirmed before, or else the one the client named, lets
        // the Server API answer; the receipt is the fallback.
        let transactionId = try order.transactionId ?? submission.optionalString("claimed_transaction_id")
        let evidence = try PurchaseEvidence(kind: try submission.value("kind", as: EvidenceKind.self), storedText: try submission.string("receipt_data"))
        let report = await verifier.verify(evidence, claimedTransactionId: transactionId, app: order.app ?? settings.bundleId)
        if !actor.isSystem {
            try await write(as: actor) { tx in tx.audit(.reverify, target: .order(orderId)) }
        }
        // An operator who may override a rejection has Apple's answer decide it again; the
        // worker never does.
        let reopen = order.state == .rejected && !actor.isSystem && OrderPermissions.overridesRejection(actor.role)
        return try await applyAnswer(orderId: orderId, submissionId: try submission.int64("id"), report: report, reopen: reopen, releasingClaimOf: owner)
    }

    /// In a task of its own: a cancelled caller's task would have its statements refused,
    /// and the lease would block the order until it ran out.
    func releaseUnanswered(orderId: String, owner: String, made: Bool) async throws {
        try await Task { try await self.releaseUnansweredVerification(orderId: orderId, owner: owner, made: made) }.value
    }
}

extension AppleAnswers {
    /// Re-verifies an order end to end: its latest stored submission goes to Apple through
    /// `verifier` (outside any transaction, since Apple takes seconds), then the answer is
    /// stored and the rules applied. The order's verify job is taken under a lease first
    /// (`claimVerification`), so no other process asks Apple about it at the same time.
    /// `unlessAskedSince` (a bulk run's start): an order Apple was asked about since then,
    /// by another process, is left alone rather than asked about twice.
    ///
    /// - Parameters:
    ///   - orderId: the order to ask Apple about again.
    ///   - verifier: Apple's verifyReceipt or App Store Server API client (module AppStore),
    ///     or the simulator.
    ///   - actor: the operator asking; the worker asks as the system.
    ///   - unlessAskedSince: leave the order alone if Apple was asked about it since then.
    /// - Returns: the order after Apple's answer and the rules.
    /// - Throws: `StoreError/verifyingElsewhere(orderId:by:)` while another process asks
    ///   about this order; `StoreError/noReceipt(orderId:)` for an order without a receipt;
    ///   `StoreError/forbidden(action:role:)` for a viewer.
    ///
    /// ```swift
    /// let outcome = try await store.apple.reverify(orderId: "ord_1001", using: apple, by: Operator(name: "lin", role: .support))
    /// ```
    @discardableResult
    public func reverify(
        orderId: String, using verifier: any ReceiptVerifier, by actor: Operator = .system,
        unlessAskedSince: Millis? = nil
    ) async throws -> VerificationOutcome {
        guard actor.isSystem || actor.role.mayAct else { throw StoreError.forbidden(action: .reverifyOrders, role: actor.role) }
        let owner = "\(actor.name)'s re-verify (\(LeaseOwner.new()))"
        let made: Bool
        switch try await store.claimVerification(orderId: orderId, owner: owner) {
        case .heldBy(let holder): throw StoreError.verifyingElsewhere(orderId: orderId, by: holder)
        case .taken(let wasMade): made = wasMade
        }
        do {
            if let since = unlessAskedSince,
                try await store.read({ sql in
                    try await sql.row("SELECT id FROM verification_attempts WHERE order_id = \(bind: orderId) AND at >= \(bind: since) LIMIT 1") != nil
                })
            {
                throw StoreError.verifyingElsewhere(orderId: orderId, by: "another process, which asked Apple since this run began")
            }
            // The answer and the claim's release are one commit.
            return try await store.askApple(orderId: orderId, using: verifier, by: actor, releasingClaimOf: owner)
        } catch {
            // Nothing was recorded: the job goes back as it was (or goes, if it was made for
            // this call), so no owed verification is lost and none is made up.
            try? await store.releaseUnanswered(orderId: orderId, owner: owner, made: made)
            throw error
        }
    }

    /// Rejected orders turned down for `reason` (Apple's 21010, a failed bundle id check),
    /// oldest first: what an admin re-verifies in bulk once the cause is fixed. Served by the
    /// state index (rejected orders are few), the code checked on each.
    public func rejectedOrders(reason: OrderReason, limit: Int = 10_000) async throws -> [String] {
        try await store.read { sql in
            try await sql.rows(
                """
                SELECT order_id FROM orders WHERE state = 'rejected' AND reason_code = \(bind: reason.code)
                ORDER BY created_at, order_id LIMIT \(literal: limit)
                """
            ).map { try $0.string("order_id") }
        }
    }

    /// Orders whose R4 retry time has come, oldest first.
    public func dueForRetry(now: Millis = .now(), limit: Int = 100) async throws -> [String] {
        try await store.read { sql in
            try await sql.rows(
                """
                SELECT order_id FROM orders WHERE next_retry_at IS NOT NULL AND next_retry_at <= \(bind: now)
                ORDER BY next_retry_at, order_id LIMIT \(literal: limit)
                """
            ).map { try $0.string("order_id") }
        }
    }
}
