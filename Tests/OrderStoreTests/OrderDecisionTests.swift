import OrderDomain
import TestSupport
import Testing

/// R3–R9 decide from values alone: the order, the store's answer, the checks and the facts
/// the store gathered; the decision says where the order goes and what comes with it, before
/// anything is written.
@Suite("Order decisions as values")
struct OrderDecisionTests {
    static func order(_ state: OrderState = .receiptReceived, store: Marketplace = .appStore, transactionId: String? = nil) -> Order {
        var order = Order(
            orderId: "o1", accountId: "a1", productId: "coins_60", quantity: 1, createdAt: t0, state: state, stateChangedAt: t0, version: 1,
            updatedBy: "system", transactionId: transactionId, attempts: 0, needsOperator: false, replayFlag: false)
        order.marketplace = store
        return order
    }

    @Test("R1: a stored receipt moves a waiting order on; a Google Play purchase names the store and package it was paid in")
    func receiptReceived() {
        let apple = OrderRules.receiptReceived(Self.order(.pendingPayment), submission: 7, source: .client, paidInPackage: nil)
        #expect(apple.order.state == .receiptReceived && apple.order.marketplace == .appStore && apple.audit == .receiptReceived)
        let play = OrderRules.receiptReceived(Self.order(.pendingPayment), submission: 8, source: .client, paidInPackage: "com.studio.game")
        #expect(play.order.marketplace == .googlePlay && play.order.app == "com.studio.game" && play.move == .receiptReceived(submission: 8, source: .client))
    }

    @Test("R3/R4: a store's outage waits on the schedule, our own setup waits flagged, a final answer rejects, a valid one goes on")
    func afterAnswer() throws {
        let now = t0 + 5000
        let outage = try #require(OrderRules.afterAnswer(Self.order(), .retryable(Why(.storeUnreachable(.appStore))), hasContent: false, now: now))
        #expect(outage.move == .retry(ourSetup: false) && outage.audit == .verifyRetryable && outage.order.state == .verifyRetry)
        #expect(outage.order.attempts == 1 && outage.order.firstFailureAt == now && !outage.order.needsOperator)
        #expect(outage.order.nextRetryAt == RetrySchedule.nextAttempt(afterFailure: 1, firstFailureAt: now, now: now))
        let again = try #require(OrderRules.afterAnswer(outage.order, .retryable(Why(.appleStatus(21005))), hasContent: false, now: now + 60_000))
        #expect(again.audit == .verifyRetry && again.order.attempts == 2 && again.order.firstFailureAt == now, "the 72 h window runs from the first failure")
        let setup = try #require(OrderRules.afterAnswer(Self.order(), .configuration(Why(.sharedSecretRejected)), hasContent: false, now: now))
        #expect(setup.order.needsOperator && setup.order.state == .verifyRetry && setup.order.reason == .sharedSecretRejected)
        let final = try #require(OrderRules.afterAnswer(Self.order(), .final(Why(.appleStatus(21010))), hasContent: false, now: now))
        #expect(final.order.state == .rejected && final.audit == .verifyRejected && final.order.reason == .appleStatus(21010))
        #expect(OrderRules.afterAnswer(Self.order(), .valid, hasContent: true, now: now) == nil)
        #expect(OrderRules.afterAnswer(Self.order(), .valid, hasContent: false, now: now)?.order.reason == .validWithoutContent)
        var failing = Self.order(.verifyRetry)
        failing.firstFailureAt = t0
        let late = OrderRules.retry(failing, because: Why(.storeUnreachable(.appStore)), ourSetup: false, now: t0 + RetrySchedule.window)
        #expect(late.order.nextRetryAt == nil && late.order.needsOperator && late.order.state == .verifyRetry, "past the window a person takes over")
    }

    @Test("R4: a hand delivery Apple has not confirmed stays delivered while it waits")
    func unconfirmedDeliveryWaits() {
        let waiting = OrderRules.retry(Self.order(.delivered), because: Why(.storeUnreachable(.appStore)), ourSetup: false, now: t0)
        #expect(waiting.order.state == .delivered && waiting.audit == .grantUnconfirmed)
    }

    @Test("R3/R5 on a hand delivery: a final answer or a failed check leaves it delivered, for a person; no transaction yet waits on the schedule alone")
    func handDeliveryAnswers() throws {
        let byHand = Self.order(.delivered)
        let final = try #require(OrderRules.afterAnswer(byHand, .final(Why(.appleStatus(21010))), hasContent: false, now: t0))
        #expect(final.move == .unconfirmed && final.order.state == .delivered && final.order.why == Why(.appleStatus(21010)).ofHandDelivery("o1"))
        let missing = [ReceiptCheck(name: .transactionPresent, passed: false, evidence: .noTransaction)]
        let waits = try #require(OrderRules.afterChecks(byHand, missing, now: t0))
        #expect(waits.order.state == .delivered && !waits.order.needsOperator && waits.order.why == Why(.noTransactionForOrder).ofHandDelivery("o1"))
        let wrong = [ReceiptCheck(name: .productId, passed: false, evidence: .differs(found: "no_ads", expected: "coins_60"))]
        #expect(try #require(OrderRules.afterChecks(byHand, wrong, now: t0)).move == .unconfirmed)
    }

    @Test("R5: no transaction for the order waits for a person; any other failed check rejects with what it saw")
    func afterChecks() throws {
        let missing = [ReceiptCheck(name: .transactionPresent, passed: false, evidence: .noTransaction)]
        let waits = try #require(OrderRules.afterChecks(Self.order(), missing, now: t0))
        #expect(waits.order.state == .verifyRetry && waits.order.needsOperator && waits.order.reason == .noTransactionForOrder)
        let wrong = ReceiptCheck(name: .productId, passed: false, evidence: .differs(found: "no_ads", expected: "coins_60"))
        let rejected = try #require(OrderRules.afterChecks(Self.order(), [ReceiptCheck(name: .bundleId, passed: true, evidence: .saw("x")), wrong], now: t0))
        #expect(
            rejected.order.state == .rejected && rejected.outcome == .checkFailed
                && rejected.order.why == Why(.checkFailed(.productId), ReasonParticulars(check: wrong)))
        #expect(OrderRules.afterChecks(Self.order(), [ReceiptCheck(name: .bundleId, passed: true, evidence: .saw("x"))], now: t0) == nil)
    }

    @Test(
        "R8 and R11: a renewal the owner still renews is disputed; a hand delivery Apple does not confirm, or whose purchase paid another order, waits for a person"
    )
    func disputesAndHandDeliveries() {
        let kept = OrderRules.dispute(Self.order(.verified), ownership: .ownerKeeps(owner: "A"))
        #expect(kept.order.state == .disputed && kept.audit == .ownershipDisputed && kept.order.why?.particulars.ownership == .ownerKeeps(owner: "A"))
        let delivered = Self.order(.delivered)
        let unconfirmed = OrderRules.unconfirmed(delivered, because: Why(.appleStatus(21010)))
        #expect(unconfirmed.order.state == .delivered && unconfirmed.order.needsOperator && unconfirmed.order.nextRetryAt == nil)
        #expect(unconfirmed.order.why == Why(.appleStatus(21010)).ofHandDelivery("o1") && unconfirmed.outcome == .checkFailed)
        let confirmed = OrderRules.confirmed(delivered, by: tx("500", at: t0), environment: .sandbox, ownership: nil)
        #expect(confirmed.move == .confirmed && confirmed.order.transactionId == "500" && confirmed.order.environment == .sandbox && confirmed.order.why == nil)
        let theirs = OrderRules.confirmed(delivered, by: tx("500", at: t0), environment: nil, ownership: .ownerKeeps(owner: "A"))
        #expect(theirs.order.state == .delivered && theirs.order.needsOperator && theirs.order.reason == .ownershipDisputed && theirs.audit == .grantConfirmed)
        let holder = PurchaseHolder(order: "o0", account: "a0", key: "tid:500")
        let twice = OrderRules.doubleDelivery(delivered, heldBy: holder)
        #expect(
            twice.order.deliveryConflict == "o0" && twice.flag == .doubleDelivery && twice.alsoAudits == "o0" && twice.revoke == nil, "nothing is taken back")
    }

    @Test("R11: a delivery writes one grant and tells the game; a hand grant before the purchase is named keeps being verified on the schedule")
    func deliveries() {
        let verified = OrderRules.verified(Self.order(), by: tx("500", at: t0), restoreOf: nil)
        #expect(verified.order.state == .verified && verified.order.transactionId == "500" && verified.audit == .verifyValid && verified.grant == nil)
        let automatic = OrderRules.deliver(verified.order, kind: .automatic, transactionId: "500", saying: nil, now: t0)
        #expect(automatic.order.state == .delivered && automatic.grant == OrderDecision.Grant(kind: .automatic, transactionId: "500"))
        #expect(automatic.event == .delivered && automatic.audit == GrantKind.automatic.auditAction && automatic.order.nextRetryAt == nil)
        let byHand = OrderRules.deliver(Self.order(.verifyRetry), kind: .manual, transactionId: nil, saying: "ticket 7", now: t0)
        #expect(
            byHand.move == .deliver(confirmed: false) && byHand.order.nextRetryAt == t0 + RetrySchedule.delay(afterFailure: 1)
                && byHand.operatorWords == "ticket 7")
        #expect(OrderRules.deliver(Self.order(.refunded), kind: .refundReversed, transactionId: "500", saying: nil, now: t0).event == .refundReversed)
    }

    @Test("An operator's revoke takes the grant back in their name and with their words; settling for the owner rejects the submitter's order")
    func operatorDecisions() {
        let revoked = OrderRules.revoke(Self.order(.delivered), by: "alice", saying: "fraud")
        #expect(revoked.order.state == .rejected && revoked.revoke == OrderDecision.Revoke(by: "alice", words: "fraud") && revoked.event == .revoked)
        #expect(revoked.operatorWords == "fraud" && revoked.order.reason == .revokedByOperator)
        let settled = OrderRules.settleForOwner(Self.order(.disputed), saying: "shared Apple ID")
        #expect(settled.order.state == .rejected && settled.audit == .disputeUpheld && settled.order.reason == .disputeSettled && settled.event == nil)
    }

    @Test("R7 and R9: a replay is rejected and marks the account; a refund takes the grant back in the store's name and tells the game")
    func replayAndRefund() {
        let holder = PurchaseHolder(order: "o0", account: "a0", key: "tid:500")
        let replay = OrderRules.replay(Self.order(), heldBy: holder)
        #expect(replay.order.state == .rejected && replay.order.replayFlag && replay.flag == .replay && replay.audit == .verifyReplay)
        #expect(replay.order.why == Why(.replay, ReasonParticulars(holder: holder)) && replay.revoke == nil && replay.event == nil)
        let google = OrderRules.refund(Self.order(.delivered, store: .googlePlay), because: Why(.refunded(.googlePlay)))
        #expect(
            google.order.state == .refunded && google.revoke == OrderDecision.Revoke(by: "google", why: Why(.refunded(.googlePlay)))
                && google.event == .refunded && google.audit == .refund)
        #expect(OrderRules.refund(Self.order(.delivered), because: Why(.refunded(.appStore))).revoke?.by == "apple")
    }
}
