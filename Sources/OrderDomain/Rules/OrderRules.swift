/// The decisions R3–R9 make about an order from a store's answer and the stored facts,
/// each a function of values alone.
public enum OrderRules {
    /// R3 on a store's answer: retry it, reject it, or nil to go on to the checks (a valid
    /// answer with content). A hand delivery the answer proves false is not taken back: it
    /// stays delivered, for an operator (R11).
    public static func afterAnswer(_ order: Order, _ classification: VerificationClass, hasContent: Bool, now: Millis) -> OrderDecision? {
        switch classification {
        case .retryable(let why): retry(order, because: why, ourSetup: false, now: now)
        case .configuration(let why): retry(order, because: why, ourSetup: true, now: now)
        case .final(let why): order.isUnconfirmedDelivery ? unconfirmed(order, because: why) : reject(order, because: why)
        case .valid, .validExpired: hasContent ? nil : retry(order, because: Why(.validWithoutContent), ourSetup: false, now: now)
        }
    }

    /// R5 on a valid answer: nil when every check passed. A receipt that holds no
    /// transaction for the order proves nothing (finished consumables leave it): it waits on
    /// the retry schedule, for an operator unless it is a hand delivery, which Apple may
    /// still confirm. Any other failed check rejects it (a hand delivery stays delivered,
    /// unconfirmed, for an operator).
    public static func afterChecks(_ order: Order, _ checks: [ReceiptCheck], now: Millis) -> OrderDecision? {
        guard let failed = ReceiptChecks.firstFailure(checks) else { return nil }
        let byHand = order.isUnconfirmedDelivery
        if failed.name == .transactionPresent {
            let why = Why(.noTransactionForOrder)
            return retry(order, because: byHand ? why.ofHandDelivery(order.orderId) : why, ourSetup: !byHand, now: now)
        }
        let why = Why(.checkFailed(failed.name), ReasonParticulars(check: failed))
        if byHand { return unconfirmed(order, because: why) }
        var decision = reject(order, because: why)
        decision.outcome = .checkFailed
        return decision
    }

    /// R4: the order waits for the next try, never rejected for a store's outage; once the
    /// schedule runs out a person takes over. A hand delivery awaiting confirmation stays
    /// delivered.
    public static func retry(_ order: Order, because why: Why, ourSetup: Bool, now: Millis) -> OrderDecision {
        var next = order
        if !order.isUnconfirmedDelivery { next.state = .verifyRetry }
        next.attempts = order.attempts + 1
        next.explain(why)
        let firstFailure = order.firstFailureAt ?? now
        next.firstFailureAt = firstFailure
        next.nextRetryAt = RetrySchedule.nextAttempt(afterFailure: next.attempts, firstFailureAt: firstFailure, now: now)
        next.needsOperator = ourSetup || next.nextRetryAt == nil
        let audit: AuditAction = order.isUnconfirmedDelivery ? .grantUnconfirmed : (order.state == .verifyRetry ? .verifyRetry : .verifyRetryable)
        return OrderDecision(move: .retry(ourSetup: ourSetup), order: next, audit: audit)
    }

    /// The answer proves the purchase does not pay for this order.
    public static func reject(_ order: Order, because why: Why) -> OrderDecision {
        var next = order
        next.state = .rejected
        next.explain(why)
        next.nextRetryAt = nil
        return OrderDecision(move: .reject, order: next, audit: .verifyRejected)
    }

    /// R7: the purchase is held by another order: rejected, flagged, its account marked.
    public static func replay(_ order: Order, heldBy holder: PurchaseHolder) -> OrderDecision {
        var next = order
        next.replayFlag = true
        next.state = .rejected
        next.explain(Why(.replay, ReasonParticulars(holder: holder)))
        return OrderDecision(move: .replay, order: next, audit: .verifyReplay, flag: .replay, outcome: .checkFailed)
    }

    /// R9: the store took the purchase back: refunded, its grant revoked, the game told.
    public static func refund(_ order: Order, because why: Why) -> OrderDecision {
        var next = order
        next.state = .refunded
        next.explain(why)
        next.nextRetryAt = nil
        return OrderDecision(
            move: .refund, order: next, audit: .refund, revoke: OrderDecision.Revoke(by: order.marketplace.codePrefix, why: why), event: .refunded)
    }

    /// R8: the owner still renews, so the renewal is theirs: the order waits, disputed.
    public static func dispute(_ order: Order, ownership: OwnershipRule.Decision) -> OrderDecision {
        var next = order
        next.state = .disputed
        next.explain(Why(.ownershipDisputed, ReasonParticulars(ownership: ownership)))
        return OrderDecision(move: .dispute, order: next, audit: .ownershipDisputed)
    }

    /// R11: Apple's answer does not confirm a delivery made by hand: it stays delivered,
    /// for an operator, with no more tries.
    public static func unconfirmed(_ order: Order, because why: Why) -> OrderDecision {
        var next = order
        next.needsOperator = true
        next.explain(why.ofHandDelivery(order.orderId))
        next.nextRetryAt = nil
        return OrderDecision(move: .unconfirmed, order: next, audit: .grantUnconfirmed, outcome: .checkFailed)
    }

    /// R7/R11: a delivery made by hand, and the purchase paid for `holder`'s order too:
    /// nothing is taken back; both orders are flagged for an operator to settle.
    public static func doubleDelivery(_ order: Order, heldBy holder: PurchaseHolder) -> OrderDecision {
        var next = order
        next.deliveryConflict = holder.order
        next.needsOperator = true
        next.explain(Why(.doubleDelivery, ReasonParticulars(holder: holder, handDelivery: order.orderId)))
        next.nextRetryAt = nil
        return OrderDecision(
            move: .doubleDelivery, order: next, audit: .deliveryConflict, flag: .doubleDelivery, alsoAudits: holder.order, outcome: .checkFailed)
    }

    /// An operator takes a delivery back: rejected, the grant revoked in their name, the game told.
    public static func revoke(_ order: Order, by actor: String, saying words: String) -> OrderDecision {
        var next = order
        next.state = .rejected
        next.explain(Why(.revokedByOperator, ReasonParticulars(actor: actor, note: words)))
        next.nextRetryAt = nil
        return OrderDecision(
            move: .revokedByOperator, order: next, audit: .revoke, operatorWords: words, revoke: OrderDecision.Revoke(by: actor, words: words),
            event: .revoked)
    }

    /// R1: a receipt stored for an order waiting for its payment moves it on; a Google Play
    /// purchase names the store and package it was paid in.
    public static func receiptReceived(_ order: Order, submission: Int64, source: SubmissionSource, paidInPackage package: String?) -> OrderDecision {
        var next = order
        next.state = .receiptReceived
        if let package { (next.marketplace, next.app) = (.googlePlay, package) }
        return OrderDecision(move: .receiptReceived(submission: submission, source: source), order: next, audit: .receiptReceived)
    }

    /// R5, R6, R7: the answer proves `transaction` pays for the order, which claimed it.
    public static func verified(_ order: Order, by transaction: AppleTransaction, restoreOf holder: String?) -> OrderDecision {
        var next = order
        next.transactionId = transaction.transactionId
        next.originalTransactionId = transaction.originalTransactionId
        next.explain(nil)
        next.nextRetryAt = nil
        next.needsOperator = false
        next.state = .verified
        return OrderDecision(move: .verified(restoreOf: holder), order: next, audit: .verifyValid)
    }

    /// R11: the order is delivered with one grant of `kind`, and the game told. A hand
    /// delivery before the store named the purchase that paid keeps being verified on the R4
    /// schedule, so the answer that names it can claim it (R7).
    public static func deliver(_ order: Order, kind: GrantKind, transactionId: String?, saying words: String?, now: Millis) -> OrderDecision {
        var next = order
        next.state = .delivered
        next.explain(nil)
        next.needsOperator = false
        if transactionId == nil {
            next.attempts = 0
            next.firstFailureAt = nil
            next.nextRetryAt = now + RetrySchedule.delay(afterFailure: 1)
        }
        return OrderDecision(
            move: .deliver(confirmed: transactionId != nil), order: next, audit: kind.auditAction, operatorWords: words,
            grant: OrderDecision.Grant(kind: kind, transactionId: transactionId), event: kind == .refundReversed ? .refundReversed : .delivered)
    }

    /// R7, R11: Apple's answer names the purchase that paid for a delivery made by hand, which
    /// the order claimed: the delivery stands, linked to it. A renewal R8 gives to another
    /// account stays delivered, for an operator.
    public static func confirmed(_ order: Order, by transaction: AppleTransaction, environment: AppleEnvironment?, ownership: OwnershipRule.Decision?)
        -> OrderDecision
    {
        var next = order
        next.transactionId = transaction.transactionId
        next.originalTransactionId = transaction.originalTransactionId
        next.environment = environment ?? order.environment
        next.nextRetryAt = nil
        next.firstFailureAt = nil
        next.explain(nil)
        next.needsOperator = false
        if case .ownerKeeps = ownership {
            next.needsOperator = true
            next.explain(Why(.ownershipDisputed, ReasonParticulars(ownership: ownership, handDelivery: order.orderId)))
        }
        return OrderDecision(move: .confirmed, order: next, audit: .grantConfirmed)
    }

    /// An operator settles a disputed renewal for its owner: the submitter's order is rejected.
    public static func settleForOwner(_ order: Order, saying words: String) -> OrderDecision {
        var next = order
        next.state = .rejected
        next.explain(Why(.disputeSettled, ReasonParticulars(note: words)))
        return OrderDecision(move: .settledForOwner, order: next, audit: .disputeUpheld, operatorWords: words)
    }
}
