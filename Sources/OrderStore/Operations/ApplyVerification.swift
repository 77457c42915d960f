import SQLKit

/// What the rules made of one verification, for the caller (CLI, console, tests).
public struct VerificationOutcome: Sendable {
    public var order: Order
    public var classification: VerificationClass
    /// The transaction the order pays with (R6), when the receipt was valid.
    public var picked: AppleTransaction?
    /// R5, in order; empty when the receipt was not valid.
    public var checks: [ReceiptCheck]
    /// R8, for auto-renewing subscriptions.
    public var ownership: OwnershipRule.Decision?
    /// R2: a sandbox purchase in a production store.
    public var flaggedSandbox: Bool
    /// Apple's answer as the verifier reported it (status, environment, latency).
    public var report: VerificationReport
}

extension OrderStore {
    /// Records one answer from Apple as a verification attempt and applies R2–R9 to the
    /// order, all in one transaction: classification (R3), the retry schedule (R4), the
    /// checks (R5), picking (R6), replay keys (R7), ownership (R8), refunds (R9) and the
    /// automatic grant, exactly once (R11).
    @discardableResult
    public func applyVerification(orderId: String, submissionId: Int64?, report: VerificationReport, at now: Millis = .now()) async throws -> VerificationOutcome {
        try await write(as: .system, now: now) { tx in
            let order = try await tx.sql.requireOrder(orderId)
            let classification = StatusCodeRule.classify(report)
            try await recordAttempt(tx, orderId: orderId, submissionId: submissionId, report: report, classification: classification)
            var outcome = VerificationOutcome(
                order: order, classification: classification, picked: nil, checks: [], ownership: nil,
                flaggedSandbox: EnvironmentRule.isFlaggedSandbox(report.environment, storeIsProduction: settings.isProduction), report: report)
            switch order.state {
            case .receiptReceived, .verifyRetry:
                try await settle(tx, order: order, submissionId: submissionId, report: report, outcome: &outcome)
            case .delivered:
                // A later look at a delivered order only matters if Apple has since refunded it.
                if let content = report.content {
                    try await storeTransactions(tx, content.inApp + content.latestReceiptInfo, environment: report.environment)
                    if let mine = TransactionPicking.merged(content).first(where: { $0.transactionId == order.transactionId }), RefundRule.isRefunded(mine) {
                        outcome.order = try await refund(tx, order: order, why: "Apple reports cancellation \(mine.cancellationDate?.iso8601 ?? "")")
                    }
                    try await refreshRenewalStatus(tx, order: order, content: content)
                }
            default:
                break  // the attempt is recorded; the state is the operator's business now
            }
            return outcome
        }
    }

    private func settle(_ tx: WriteTransaction, order: Order, submissionId: Int64?, report: VerificationReport, outcome: inout VerificationOutcome) async throws {
        var next = order
        next.environment = report.environment ?? order.environment
        switch outcome.classification {
        case .retryable(let reason):
            try await scheduleRetry(tx, order: order, reason: reason, outcome: &outcome)
            return
        case .final(let reason):
            next.state = .rejected
            next.lastError = reason
            outcome.order = try await tx.save(next, previous: order, action: "verify.rejected", reason: reason)
            return
        case .valid, .validExpired:
            break
        }
        guard let content = report.content else {
            try await scheduleRetry(tx, order: order, reason: "Apple said valid but sent no receipt content", outcome: &outcome)
            return
        }
        let types = try await tx.sql.productTypes()
        guard let productType = types[order.productId] else { throw StoreError.notFound(kind: "product", id: order.productId) }
        let claimed = try await claimedTransactionId(tx, submissionId: submissionId)
        let picked = TransactionPicking.pick(for: productType, claimedTransactionId: claimed, in: content, types: types)
        outcome.picked = picked
        try await storeTransactions(tx, content.inApp + content.latestReceiptInfo, environment: report.environment)
        outcome.checks = ReceiptChecks.run(order: order, expectedBundleId: settings.bundleId, content: content, picked: picked, clockSkew: settings.clockSkew)
        if let failed = ReceiptChecks.firstFailure(outcome.checks) {
            next.state = .rejected
            next.lastError = "check failed: \(failed.name.rawValue): \(failed.detail)"
            outcome.order = try await tx.save(next, previous: order, action: "verify.rejected", reason: next.lastError)
            return
        }
        guard let transaction = picked else { return }  // unreachable: the presence check failed above

        // R7: claim every key of this purchase; one taken key makes it a replay.
        if let holder = try await claim(tx, transaction: transaction, type: productType, order: order) {
            next.state = .rejected
            next.replayFlag = true
            next.lastError = "replay: \(holder)"
            try await tx.sql.raw("""
                INSERT INTO account_flags (account_id, flag, order_id, detail, at)
                VALUES (\(bind: order.accountId), 'replay', \(bind: order.orderId), \(bind: holder), \(bind: tx.now))
                """).run()
            outcome.order = try await tx.save(next, previous: order, action: "verify.replay", reason: next.lastError)
            return
        }
        next.transactionId = transaction.transactionId
        next.originalTransactionId = transaction.originalTransactionId
        next.lastError = nil
        next.nextRetryAt = nil
        next.state = .verified
        var current = try await tx.save(next, previous: order, action: "verify.valid",
                                        detail: "transaction \(transaction.transactionId) in \(report.environment?.rawValue ?? "unknown environment")")

        if productType == .autoRenewable {
            let decision = try await decideOwnership(tx, order: current, transaction: transaction, content: content)
            outcome.ownership = decision
            if case .ownerKeeps = decision {
                var disputed = current
                disputed.state = .disputed
                disputed.lastError = decision.explanation
                outcome.order = try await tx.save(disputed, previous: current, action: "ownership.disputed", reason: decision.explanation)
                return
            }
        }
        current = try await deliver(tx, order: current, transactionId: transaction.transactionId, kind: "automatic", reason: nil)
        outcome.order = current
    }

    /// What Apple now says about the order's subscription renewing is what R8 weighs when
    /// another account submits its next renewal.
    private func refreshRenewalStatus(_ tx: WriteTransaction, order: Order, content: AppleReceiptContent) async throws {
        guard let otid = order.originalTransactionId,
              let renewal = content.pendingRenewals.first(where: { $0.originalTransactionId == otid }) else { return }
        let changed = try await tx.sql.row("""
            UPDATE subscriptions SET auto_renew = \(bind: renewal.autoRenewEnabled ? 1 : 0), updated_at = \(bind: tx.now)
            WHERE original_transaction_id = \(bind: otid) AND auto_renew <> \(bind: renewal.autoRenewEnabled ? 1 : 0)
            RETURNING owner_account
            """)
        if changed != nil {
            tx.audit("subscription.renewal_status", target: "otid:\(otid)", detail: renewal.autoRenewEnabled ? "auto-renew on (Apple)" : "auto-renew off (Apple)")
        }
    }

    private func scheduleRetry(_ tx: WriteTransaction, order: Order, reason: String, outcome: inout VerificationOutcome) async throws {
        var next = order
        next.state = .verifyRetry
        next.attempts = order.attempts + 1
        next.lastError = reason
        let firstFailure = order.firstFailureAt ?? tx.now
        next.firstFailureAt = firstFailure
        if let at = RetrySchedule.nextAttempt(afterFailure: next.attempts, firstFailureAt: firstFailure, now: tx.now) {
            next.nextRetryAt = at
        } else {
            next.nextRetryAt = nil
            next.needsOperator = true  // R4: never rejected for Apple's outage; a human takes over
        }
        outcome.order = try await tx.save(next, previous: order, action: order.state == .verifyRetry ? "verify.retry" : "verify.retryable", reason: reason,
                                          detail: next.needsOperator ? "retry schedule exhausted: needs operator" : "next try \(next.nextRetryAt?.iso8601 ?? "-")")
    }

    private func recordAttempt(_ tx: WriteTransaction, orderId: String, submissionId: Int64?, report: VerificationReport, classification: VerificationClass) async throws {
        let (outcome, reason): (String, String?) = switch classification {
        case .valid: ("valid", nil)
        case .validExpired: ("valid_expired", StatusCodeRule.meaning(of: 21006))
        case .retryable(let why): ("retryable", why)
        case .final(let why): ("final", why)
        }
        try await tx.sql.raw("""
            INSERT INTO verification_attempts (order_id, submission_id, at, method, environment, outcome, apple_status,
              http_status, latency_ms, reason, body)
            VALUES (\(bind: orderId), \(bind: submissionId), \(bind: tx.now), \(bind: report.method.rawValue),
                    \(bind: report.environment?.rawValue), \(bind: outcome), \(bind: report.appleStatus),
                    \(bind: report.httpStatus), \(bind: report.latencyMs), \(bind: reason), \(bind: report.body))
            """).run()
    }

    private func claimedTransactionId(_ tx: WriteTransaction, submissionId: Int64?) async throws -> String? {
        guard let submissionId else { return nil }
        return try await tx.sql.row("SELECT claimed_transaction_id FROM receipt_submissions WHERE id = \(bind: submissionId)")?
            .optionalString("claimed_transaction_id")
    }

    /// Every transaction Apple showed us is kept; those no order claims are orphans.
    func storeTransactions(_ tx: WriteTransaction, _ transactions: [AppleTransaction], environment: AppleEnvironment?) async throws {
        var seen = Set<String>()
        for t in transactions where seen.insert(t.transactionId).inserted {
            try await tx.sql.raw("""
                INSERT INTO transactions (transaction_id, original_transaction_id, product_id, quantity, purchase_date,
                  original_purchase_date, expires_date, cancellation_date, cancellation_reason, web_order_line_item_id,
                  ownership_type, environment, first_seen_at)
                VALUES (\(bind: t.transactionId), \(bind: t.originalTransactionId), \(bind: t.productId), \(bind: t.quantity),
                        \(bind: t.purchaseDate), \(bind: t.originalPurchaseDate), \(bind: t.expiresDate), \(bind: t.cancellationDate),
                        \(bind: t.cancellationReason), \(bind: t.webOrderLineItemId), \(bind: t.ownershipType),
                        \(bind: environment?.rawValue), \(bind: tx.now))
                ON CONFLICT (transaction_id) DO UPDATE SET expires_date = excluded.expires_date,
                  cancellation_date = excluded.cancellation_date, cancellation_reason = excluded.cancellation_reason
                """).run()
        }
    }

    /// R7: inserts the purchase's keys; returns who already holds one, or nil if all were free.
    /// On a replay the keys this order did take are given back, so nothing half-done stays.
    func claim(_ tx: WriteTransaction, transaction: AppleTransaction, type: ProductType, order: Order) async throws -> String? {
        var taken: [String] = []
        for key in ReplayKeys.keys(for: transaction, type: type) {
            let inserted = try await tx.sql.row("""
                INSERT INTO claims (claim_key, order_id, account_id, transaction_id, at)
                VALUES (\(bind: key), \(bind: order.orderId), \(bind: order.accountId), \(bind: transaction.transactionId), \(bind: tx.now))
                ON CONFLICT (claim_key) DO NOTHING RETURNING claim_key
                """)
            if inserted != nil {
                taken.append(key)
                continue
            }
            let holder = try await tx.sql.row("SELECT order_id, account_id FROM claims WHERE claim_key = \(bind: key)")
            let holderOrder = try holder?.string("order_id") ?? "?"
            if holderOrder == order.orderId { continue }  // re-verifying our own claim is no replay
            for mine in taken { try await tx.sql.raw("DELETE FROM claims WHERE claim_key = \(bind: mine)").run() }
            let holderAccount = try holder?.string("account_id") ?? "?"
            let across = holderAccount == order.accountId ? "same account" : "another account (\(holderAccount))"
            return "\(key) already claimed by order \(holderOrder) of \(across)"
        }
        try await tx.sql.raw("""
            UPDATE transactions SET order_id = \(bind: order.orderId), submitted_by = \(bind: order.accountId)
            WHERE transaction_id = \(bind: transaction.transactionId)
            """).run()
        return nil
    }

    /// R11: the grant row is the delivery. The unique index on live grants makes a second
    /// one impossible; the loser learns who delivered and when.
    func deliver(_ tx: WriteTransaction, order: Order, transactionId: String?, kind: String, reason: String?) async throws -> Order {
        let inserted = try await tx.sql.row("""
            INSERT INTO grants (order_id, account_id, transaction_id, kind, operator, reason, granted_at)
            VALUES (\(bind: order.orderId), \(bind: order.accountId), \(bind: transactionId), \(bind: kind),
                    \(bind: tx.actor.name), \(bind: reason), \(bind: tx.now))
            ON CONFLICT DO NOTHING RETURNING id
            """)
        guard inserted != nil else { throw try await alreadyDelivered(tx, orderId: order.orderId) }
        var next = order
        next.state = .delivered
        next.lastError = nil
        next.needsOperator = false
        return try await tx.save(next, previous: order, action: kind == "automatic" ? "deliver" : "grant", reason: reason)
    }

    func alreadyDelivered(_ tx: WriteTransaction, orderId: String) async throws -> StoreError {
        guard let live = try await tx.sql.row("SELECT operator, granted_at FROM grants WHERE order_id = \(bind: orderId) AND revoked_at IS NULL") else {
            return try await tx.conflict(orderId: orderId)
        }
        return .alreadyDelivered(orderId: orderId, by: try live.string("operator"), at: try live.int64("granted_at"))
    }

    /// R9: the order is refunded and its live grant revoked.
    func refund(_ tx: WriteTransaction, order: Order, why: String) async throws -> Order {
        try await tx.sql.raw("""
            UPDATE grants SET revoked_at = \(bind: tx.now), revoked_by = 'apple', revoke_reason = \(bind: why)
            WHERE order_id = \(bind: order.orderId) AND revoked_at IS NULL
            """).run()
        var next = order
        next.state = .refunded
        next.lastError = why
        return try await tx.save(next, previous: order, action: "refund", reason: why)
    }
}
