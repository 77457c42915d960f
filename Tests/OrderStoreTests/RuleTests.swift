import OrderDomain
import TestSupport
import Testing

@testable import OrderStore

@Suite("Rules as pure functions")
struct RuleTests {
    // MARK: R2

    @Test("R2: 21007 at production resends to sandbox; 21008 at sandbox resends to production")
    func environmentSwitch() {
        #expect(EnvironmentRule.first == .production)
        #expect(EnvironmentRule.resend(afterStatus: 21007, from: .production) == .sandbox)
        #expect(EnvironmentRule.resend(afterStatus: 21008, from: .sandbox) == .production)
        #expect(EnvironmentRule.resend(afterStatus: 21007, from: .sandbox) == nil)  // no ping-pong
        #expect(EnvironmentRule.resend(afterStatus: 21008, from: .production) == nil)
        #expect(EnvironmentRule.resend(afterStatus: 0, from: .production) == nil)
        #expect(EnvironmentRule.isFlaggedSandbox(.sandbox, storeIsProduction: true))
        #expect(!EnvironmentRule.isFlaggedSandbox(.sandbox, storeIsProduction: false))
        #expect(!EnvironmentRule.isFlaggedSandbox(.production, storeIsProduction: true))
    }

    // MARK: R3

    @Test(
        "R3: every documented status code has its class; only proof of an invalid receipt is final",
        arguments: [
            (0, "valid"), (21006, "validExpired"),
            (21002, "retryable"), (21005, "retryable"), (21009, "retryable"),
            (21000, "configuration"), (21004, "configuration"), (99999, "configuration"),
            (21003, "final"), (21010, "final"),
        ])
    func statusClasses(status: Int, expected: String) {
        #expect(kind(StatusCodeRule.classify(statusReport(status))) == expected, "status \(status)")
    }

    @Test("R3: 21003 without a shared secret sent is our configuration, not a forged receipt")
    func noSecret() {
        var report = statusReport(21003)
        report.sharedSecretSent = false
        #expect(kind(StatusCodeRule.classify(report)) == "configuration")
        report.sharedSecretSent = true
        #expect(kind(StatusCodeRule.classify(report)) == "final")
    }

    @Test("R3: 211xx is Apple's own error: retried, or waiting for an operator when Apple says not retryable — never final")
    func internalErrors() {
        #expect(kind(StatusCodeRule.classify(statusReport(21104, retryable: true))) == "retryable")
        #expect(kind(StatusCodeRule.classify(statusReport(21199))) == "retryable")
        #expect(kind(StatusCodeRule.classify(statusReport(21104, retryable: false))) == "configuration")
    }

    @Test("R3: Server API answers: Apple's faults retry, the rest wait for an operator; none is final")
    func serverAPICodes() {
        for code in [4_040_002, 4_290_000, 5_000_000] { #expect(kind(StatusCodeRule.classify(statusReport(code))) == "retryable", "\(code)") }
        for code in [4_040_010, 4_000_006, 4_040_001] { #expect(kind(StatusCodeRule.classify(statusReport(code))) == "configuration", "\(code)") }
        let unauthorized = VerificationReport(environment: .production, appleStatus: nil, httpStatus: 401)
        #expect(kind(StatusCodeRule.classify(unauthorized)) == "configuration")
    }

    @Test("R3: time-outs, HTTP 5xx, 429 and unreadable bodies are retryable, never final")
    func transportFailures() {
        #expect(isRetryable(StatusCodeRule.classify(outage)))
        #expect(isRetryable(StatusCodeRule.classify(VerificationReport(environment: .production, appleStatus: nil, httpStatus: 503))))
        #expect(isRetryable(StatusCodeRule.classify(VerificationReport(environment: .production, appleStatus: nil, httpStatus: 429))))
        #expect(isRetryable(StatusCodeRule.classify(VerificationReport(environment: .production, appleStatus: nil, httpStatus: 200, body: "<html>"))))
    }

    @Test("R3: every code shows its meaning; final reasons carry it")
    func meanings() {
        for code in [0, 21000, 21002, 21003, 21004, 21005, 21006, 21007, 21008, 21009, 21010, 21100, 21199] {
            #expect(!StatusCodeRule.meaning(of: code).hasPrefix("unknown"), "code \(code)")
        }
        #expect(StatusCodeRule.meaning(of: 12345).hasPrefix("unknown"))
        guard case .configuration(let why) = StatusCodeRule.classify(statusReport(21004)) else { Issue.record("21004 not a configuration error"); return }
        #expect(why.reason == .sharedSecretRejected && why.words.contains("shared secret"))
    }

    // MARK: R4

    @Test("R4: 10 s, 30 s, 2 min, 10 min, 30 min, 1 h, then hourly")
    func retrySteps() {
        let expected: [Millis] = [.seconds(10), .seconds(30), .minutes(2), .minutes(10), .minutes(30), .hours(1), .hours(1), .hours(1)]
        #expect((1...8).map(RetrySchedule.delay(afterFailure:)) == expected)
    }

    @Test("R4: the schedule runs out 72 h after the first failure")
    func retryExhaustion() {
        #expect(RetrySchedule.nextAttempt(afterFailure: 1, firstFailureAt: t0, now: t0) == t0 + .seconds(10))
        #expect(RetrySchedule.nextAttempt(afterFailure: 70, firstFailureAt: t0, now: t0 + .hours(70)) == t0 + .hours(71))
        #expect(RetrySchedule.nextAttempt(afterFailure: 72, firstFailureAt: t0, now: t0 + .hours(72)) == nil)
    }

    // MARK: R5

    private func order(product: String = "coins_60", quantity: Int = 1, created: Millis = t0) -> Order {
        Order(
            orderId: "o1", accountId: "a1", productId: product, quantity: quantity, createdAt: created, state: .receiptReceived,
            stateChangedAt: created, version: 1, updatedBy: "system", stuckSince: created, environment: nil, transactionId: nil,
            originalTransactionId: nil, attempts: 0, firstFailureAt: nil, nextRetryAt: nil, needsOperator: false, replayFlag: false)
    }

    private func failures(_ picked: AppleTransaction?, order: Order? = nil, type: ProductType = .consumable, bundle: String = "com.example.game")
        -> [ReceiptCheck.Name]
    {
        let content = AppleReceiptContent(bundleId: bundle, inApp: picked.map { [$0] } ?? [])
        return ReceiptChecks.run(order: order ?? self.order(), productType: type, expectedBundleId: "com.example.game", content: content, picked: picked)
            .filter { !$0.passed }.map(\.name)
    }

    @Test("R5 with R9: a consumable's cancellation fails the check where the answer can tell one (a signed revocation, Google's void), never from a receipt")
    func consumableRefundBySource() {
        var revoked = tx("1", at: t0 + 1000)
        revoked.cancellationDate = t0 + 2000
        let content = AppleReceiptContent(bundleId: "com.example.game", inApp: [revoked])
        func failed(_ tells: Bool) -> [ReceiptCheck.Name] {
            ReceiptChecks.run(
                order: order(), productType: .consumable, expectedBundleId: "com.example.game", content: content, picked: revoked,
                answerReportsConsumableRefunds: tells
            ).filter { !$0.passed }.map(\.name)
        }
        #expect(failed(true) == [.notCancelled])
        #expect(failed(false).isEmpty)
    }

    @Test("R5: a matching transaction passes every check")
    func allPass() {
        #expect(failures(tx("1", at: t0 + 1000)).isEmpty)
    }

    @Test(
        "R5: each failing check is reported",
        arguments: [
            ("bundle", ReceiptCheck.Name.bundleId),
            ("product", .productId),
            ("quantity", .quantity),
            ("early", .purchaseAfterOrder),
            ("cancelled", .notCancelled),
            ("token", .accountToken),
            ("missing", .transactionPresent),
        ])
    func failingCheck(kind: String, expected: ReceiptCheck.Name) {
        let got: [ReceiptCheck.Name] =
            switch kind {
            case "bundle": failures(tx("1", at: t0 + 1000), bundle: "com.resigned.game")
            case "product": failures(tx("1", product: "coins_600", at: t0 + 1000))
            case "quantity": failures(tx("1", at: t0 + 1000, quantity: 5))
            case "early": failures(tx("1", at: t0 - .minutes(30)))
            case "cancelled": failures(tx("1", product: "no_ads", at: t0 + 1000, cancelled: t0 + 5000), order: order(product: "no_ads"), type: .nonConsumable)
            case "token": failures(tx("1", at: t0 + 1000, token: "someone-elses-order"))
            default: failures(nil)
            }
        #expect(got == [expected])
    }

    @Test("R5: a renewal carries its first purchase's token, so the token check leaves it to R8")
    func renewalToken() {
        #expect(failures(tx("2", original: "1", at: t0 + 1000, token: "the-first-order")).isEmpty)
    }

    @Test("R5: a renewal predates the order that submits it and goes to R8; a first purchase may not")
    func renewalDate() {
        let vipOrder = order(product: "vip_monthly")
        let renewal = tx("2", product: "vip_monthly", original: "1", at: t0 - .days(3), expires: t0 + .days(27))
        #expect(failures(renewal, order: vipOrder, type: .autoRenewable).isEmpty)
        let firstPurchase = tx("1", product: "vip_monthly", at: t0 - .days(3), expires: t0 + .days(27))
        #expect(failures(firstPurchase, order: vipOrder, type: .autoRenewable) == [.purchaseAfterOrder])
        // A consumable keeps the check even when ids differ (restored or migrated ids).
        #expect(failures(tx("2", original: "1", at: t0 - .days(3))) == [.purchaseAfterOrder])
    }

    @Test("R5/R9: an upgrade's cancellation date is no refund; consumables' receipt cancellations are not taken")
    func upgradeIsNoRefund() {
        var upgraded = tx("1", product: "vip_monthly", at: t0 + 1000, cancelled: t0 + 5000)
        upgraded.isUpgraded = true
        #expect(failures(upgraded, order: order(product: "vip_monthly"), type: .autoRenewable).isEmpty)
        #expect(RefundRule.cancellation(of: upgraded, type: .autoRenewable) == nil)
        #expect(RefundRule.cancellation(of: tx("1", at: t0, cancelled: t0 + 1), type: .consumable) == nil)
        #expect(RefundRule.cancellation(of: tx("1", at: t0, cancelled: t0 + 1), type: .consumable, fromJWS: true) == t0 + 1)
    }

    @Test("R5: a purchase a little before the order passes within the clock skew")
    func clockSkew() {
        #expect(failures(tx("1", at: t0 - .minutes(2))).isEmpty)
    }

    // MARK: R6

    @Test("R6: picks the latest purchase of the order's type whatever the array order")
    func picksLatest() {
        let old = tx("100", at: t0), newest = tx("300", at: t0 + 3000), middle = tx("200", at: t0 + 2000)
        for arrangement in [[old, newest, middle], [newest, middle, old], [middle, old, newest]] {
            let content = AppleReceiptContent(bundleId: "b", inApp: arrangement)
            #expect(pick(nil, content) == newest)
        }
    }

    private func pick(_ claimed: String?, _ content: AppleReceiptContent, product: String = "coins_60", held: Set<String> = []) -> AppleTransaction? {
        TransactionPicking.pick(
            for: order(product: product), productType: TestCatalogue.types[product] ?? .consumable, claimedTransactionId: claimed,
            in: content, types: TestCatalogue.types, heldByAnother: { held.contains($0.transactionId) })
    }

    @Test("R6: prefers the order's own product, and passes over purchases other orders hold")
    func picksOwnUnclaimed() {
        let mine = tx("100", at: t0), othersNewer = tx("200", at: t0 + 2000), otherProduct = tx("300", product: "coins_600", at: t0 + 3000)
        let content = AppleReceiptContent(bundleId: "b", inApp: [mine, othersNewer, otherProduct])
        #expect(pick(nil, content) == othersNewer)
        #expect(pick(nil, content, held: ["200"]) == mine)
        // Nothing free: the latest of the type, so R5/R7 say what is wrong with it.
        #expect(pick(nil, content, held: ["100", "200"]) == othersNewer)
        _ = otherProduct
    }

    @Test("R6/R9: a cancellation shown only in latest_receipt_info counts")
    func cancellationInLatestOnly() {
        let plain = tx("1", product: "vip_monthly", at: t0, expires: t0 + .days(30))
        var cancelled = plain
        cancelled.cancellationDate = t0 + .days(2)
        let merged = TransactionPicking.merged(AppleReceiptContent(bundleId: "b", inApp: [plain], latestReceiptInfo: [cancelled]))
        #expect(merged.count == 1)
        #expect(merged.first?.cancellationDate == t0 + .days(2))
    }

    @Test("R6: merges in_app with latest_receipt_info and drops duplicates")
    func mergesAndDeduplicates() {
        let a = tx("1", at: t0), b = tx("2", product: "vip_monthly", at: t0 + 10, expires: t0 + .hours(720))
        let content = AppleReceiptContent(bundleId: "b", inApp: [a, b], latestReceiptInfo: [b, a, b])
        #expect(TransactionPicking.merged(content).map(\.transactionId) == ["2", "1"])
    }

    @Test("R6: groups by product type: a newer subscription does not hide the consumable")
    func groupsByType() {
        let coins = tx("1", at: t0), vip = tx("2", product: "vip_monthly", at: t0 + 5000)
        let content = AppleReceiptContent(bundleId: "b", inApp: [coins], latestReceiptInfo: [vip])
        let latest = TransactionPicking.latestPerType(content, types: TestCatalogue.types)
        #expect(latest[.consumable] == coins)
        #expect(latest[.autoRenewable] == vip)
        #expect(pick(nil, content) == coins)
    }

    @Test("R6: a transaction id sent by the client wins over picking")
    func claimedWins() {
        let older = tx("1", at: t0), newer = tx("2", at: t0 + 10)
        let content = AppleReceiptContent(bundleId: "b", inApp: [older, newer])
        #expect(pick("1", content) == older)
        #expect(pick("9", content) == nil)
    }

    // MARK: R7

    @Test("R7: keys: non-consumables by original id, subscription periods by line item, consumables by id only")
    func replayKeys() {
        #expect(ReplayKeys.keys(for: tx("5", original: "1", at: t0), type: .consumable) == ["tid:5"])
        #expect(ReplayKeys.keys(for: tx("5", original: "1", at: t0), type: .nonConsumable) == ["tid:5", "otid:1"])
        #expect(ReplayKeys.keys(for: tx("5", original: "1", at: t0, line: "99"), type: .autoRenewable) == ["tid:5", "wol:99"])
    }

    // MARK: R8

    private func owner(_ account: String = "A", autoRenew: Bool = true, status: SubscriptionStatus = .active, periodEnd: Millis? = t0 + .days(30))
        -> OwnershipRule.OwnerFacts
    {
        .init(accountId: account, autoRenew: autoRenew, status: status, periodEnd: periodEnd)
    }
    private let renewalAt = t0 + .days(30) - .hours(20)

    @Test("R8: no owner → the submitter owns; same owner → nothing to decide")
    func ownershipSimple() {
        #expect(OwnershipRule.decide(owner: nil, submitter: "B", purchasedAt: renewalAt) == .firstOwner("B"))
        #expect(OwnershipRule.decide(owner: owner("B"), submitter: "B", purchasedAt: renewalAt) == .sameOwner)
    }

    @Test("R8 seed 003 case 1: A still auto-renews, B submits the renewal → it is A's")
    func ownerKeeps() {
        let decision = OwnershipRule.decide(owner: owner(), submitter: "B", purchasedAt: renewalAt)
        #expect(decision == .ownerKeeps(owner: "A"))
        #expect(decision.needsReview)
    }

    @Test("R8 seed 003 case 2: A turned auto-renew off → ownership moves to B")
    func transfer() {
        let decision = OwnershipRule.decide(owner: owner(autoRenew: false), submitter: "B", purchasedAt: renewalAt)
        #expect(decision == .transfer(from: "A", to: "B", because: .autoRenewOff))
        #expect(decision.needsReview)
        #expect(decision.explanation == "owner A turned auto-renew off; ownership moves to B")
    }

    @Test("R8: an owner whose subscription had expired, been refunded or revoked before the purchase is not renewing, whatever the flag says")
    func lapsedOwner() {
        let monthsLater = t0 + .days(120)
        #expect(
            OwnershipRule.decide(owner: owner(), submitter: "B", purchasedAt: monthsLater)
                == .transfer(from: "A", to: "B", because: .expired(at: t0 + .days(30))))
        #expect(
            OwnershipRule.decide(owner: owner(status: .refunded), submitter: "B", purchasedAt: renewalAt) == .transfer(from: "A", to: "B", because: .refunded))
        #expect(
            OwnershipRule.decide(owner: owner(status: .revoked), submitter: "B", purchasedAt: renewalAt) == .transfer(from: "A", to: "B", because: .revoked))
        // Apple still retrying A's card: the subscription still renews, even past the period's end.
        #expect(OwnershipRule.decide(owner: owner(status: .billingRetry), submitter: "B", purchasedAt: t0 + .days(40)) == .ownerKeeps(owner: "A"))
        // A renewal bought within Apple's renewal window of the period's end is A's.
        #expect(OwnershipRule.decide(owner: owner(), submitter: "B", purchasedAt: t0 + .days(30) + .hours(2)) == .ownerKeeps(owner: "A"))
    }

    // MARK: R9

    @Test("R9: a cancellation date means refunded; only delivered orders are refunded")
    func refunds() {
        #expect(RefundRule.cancellation(of: tx("1", product: "no_ads", at: t0, cancelled: t0 + 1), type: .nonConsumable) == t0 + 1)
        #expect(RefundRule.cancellation(of: tx("1", product: "no_ads", at: t0), type: .nonConsumable) == nil)
        #expect(RefundRule.refundApplies(to: .delivered))
        #expect(!RefundRule.refundApplies(to: .rejected))
    }

    // MARK: R10

    @Test("R10: any changed field or link changes the hash")
    func auditHash() {
        let base = AuditChain.hash(
            previous: AuditChain.genesis, seq: 1, at: t0, actor: "alice", role: "support", action: "grant", target: "order:1", reason: "r", detail: "d",
            grants: nil)
        #expect(base.count == 64)
        #expect(
            base
                != AuditChain.hash(
                    previous: AuditChain.genesis, seq: 1, at: t0, actor: "alice", role: "support", action: "grant", target: "order:1", reason: "r2",
                    detail: "d", grants: nil))
        #expect(
            base
                != AuditChain.hash(
                    previous: base, seq: 1, at: t0, actor: "alice", role: "support", action: "grant", target: "order:1", reason: "r", detail: "d", grants: nil))
        #expect(
            base
                != AuditChain.hash(
                    previous: AuditChain.genesis, seq: 1, at: t0, actor: "alice", role: "support", action: "grant", target: "order:1", reason: nil, detail: "d",
                    grants: nil)
        )
        // Moving text between fields must not collide.
        #expect(
            AuditChain.hash(previous: "", seq: 1, at: 0, actor: "ab", role: "c", action: "", target: "", reason: nil, detail: "", grants: nil)
                != AuditChain.hash(previous: "", seq: 1, at: 0, actor: "a", role: "bc", action: "", target: "", reason: nil, detail: "", grants: nil))
        // The grants an entry records are chained with it; an entry that records none hashes as before migration 23.
        let granting = { (grants: ClosedRange<Int64>?) in
            AuditChain.hash(
                previous: AuditChain.genesis, seq: 1, at: t0, actor: "alice", role: "support", action: "grant", target: "order:1", reason: "r", detail: "d",
                grants: grants)
        }
        #expect(Set([base, granting(5...5), granting(5...6), granting(55...5_555)]).count == 4)
    }

    // MARK: State machine

    @Test("The state machine allows the designed moves and nothing else")
    func stateMachine() {
        #expect(OrderState.pendingPayment.canMove(to: .receiptReceived))
        #expect(!OrderState.pendingPayment.canMove(to: .delivered))  // nobody delivers an unpaid order
        #expect(OrderState.refunded.canMove(to: .delivered))  // REFUND_REVERSED (R9)
        #expect(!OrderState.delivered.canMove(to: .verified))
        #expect(OrderState.disputed.canMove(to: .delivered) && OrderState.disputed.canMove(to: .rejected))
        #expect(OrderState.rejected.canMove(to: .delivered))
        let stuck = OrderState.allCases.filter(\.isPaidUndelivered)
        #expect(stuck == [.receiptReceived, .verifyRetry, .verified, .disputed])
    }

    private func isRetryable(_ c: VerificationClass) -> Bool {
        kind(c) == "retryable"
    }

    private func kind(_ c: VerificationClass) -> String {
        switch c {
        case .valid: "valid"
        case .validExpired: "validExpired"
        case .retryable: "retryable"
        case .configuration: "configuration"
        case .final: "final"
        }
    }

    @Test(
        "Notifications: each type maps to one effect — REFUND and REVOKE take back (consumables too), renewals extend, status types set what R8 weighs, the rest is recorded"
    )
    func notificationEffects() {
        #expect(NotificationEffect.of(type: "REFUND", subtype: nil) == .cancel(.refund))
        #expect(NotificationEffect.of(type: "REVOKE", subtype: nil) == .cancel(.revoke))
        #expect(NotificationEffect.of(type: "REFUND_REVERSED", subtype: nil) == .refundReversed)
        #expect(NotificationEffect.of(type: "DID_RENEW", subtype: "BILLING_RECOVERY") == .newPeriod)
        #expect(NotificationEffect.of(type: "SUBSCRIBED", subtype: "RESUBSCRIBE") == .newPeriod)
        #expect(NotificationEffect.of(type: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED") == .subscriptionStatus(nil, autoRenew: false))
        #expect(NotificationEffect.of(type: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_ENABLED") == .subscriptionStatus(nil, autoRenew: true))
        #expect(NotificationEffect.of(type: "DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD") == .subscriptionStatus(.gracePeriod, autoRenew: nil))
        #expect(NotificationEffect.of(type: "DID_FAIL_TO_RENEW", subtype: nil) == .subscriptionStatus(.billingRetry, autoRenew: nil))
        #expect(NotificationEffect.of(type: "EXPIRED", subtype: "VOLUNTARY") == .subscriptionStatus(.expired, autoRenew: false))
        #expect(NotificationEffect.of(type: "CONSUMPTION_REQUEST", subtype: nil) == .consumptionRequest)
        for recorded in ["TEST", "REFUND_DECLINED", "PRICE_INCREASE", "SOMETHING_NEW", nil] {
            #expect(NotificationEffect.of(type: recorded, subtype: nil) == .record)
        }
        #expect(NotificationEffect.of(type: "REFUND", subtype: nil).family?.contains("REFUND_REVERSED") == true)
        #expect(NotificationEffect.of(type: "DID_RENEW", subtype: nil).family == nil)
    }

    @Test("Outage: five retryable failures in a row at one endpoint, the newest recent, make an outage since the first; one success or silence ends it")
    func outageRule() {
        let now: Millis = 1_000_000_000
        func attempts(_ outcomes: [AttemptOutcome], method: VerificationMethod = .verifyReceipt, newest: Millis = now) -> [OutageRule.Attempt] {
            outcomes.enumerated().map { OutageRule.Attempt(method: method, outcome: $1, at: newest - Millis($0) * 1_000) }
        }
        let down = OutageRule.detect(newestFirst: attempts(Array(repeating: .retryable, count: 6) + [.valid]), now: now)
        #expect(down?.method == .verifyReceipt && down?.failures == 6 && down?.since == now - 5_000)
        #expect(OutageRule.detect(newestFirst: attempts(Array(repeating: .retryable, count: 4) + [.valid]), now: now) == nil, "four is bad luck, not an outage")
        #expect(OutageRule.detect(newestFirst: attempts([.valid] + Array(repeating: .retryable, count: 9)), now: now) == nil, "one success ends it")
        #expect(OutageRule.detect(newestFirst: attempts(Array(repeating: .final, count: 9)), now: now) == nil, "Apple answering no is no outage")
        #expect(OutageRule.detect(newestFirst: attempts(Array(repeating: .retryable, count: 9), newest: now - .minutes(11)), now: now) == nil)
        let mixed = attempts(Array(repeating: .retryable, count: 5), method: .serverAPI) + attempts([.valid], newest: now - 500)
        #expect(OutageRule.detect(newestFirst: mixed, now: now)?.method == .serverAPI, "each endpoint is watched on its own")
    }

    @Test(
        "Subscription events: a later end is a renewal (unless the order's own event told it), an expiry takes, a new owner is a take and a give; nothing else is news"
    )
    func subscriptionEvents() {
        let before = Subscription(
            originalTransactionId: "otid", ownerAccount: "A", productId: "vip_monthly", status: .active, autoRenew: true,
            expiresAt: t0 + .days(30), ownerSince: t0, decidedBy: .rule, factsAsOf: t0, factsSource: .verifyReceipt)
        var renewed = before
        renewed.expiresAt = t0 + .days(60)
        #expect(
            SubscriptionEventRule.changes(before: before, after: renewed, renewalToldAlready: false)
                == [.init(type: .subscriptionRenewed, gives: true, account: "A", until: t0 + .days(60))])
        #expect(SubscriptionEventRule.changes(before: before, after: renewed, renewalToldAlready: true).isEmpty, "the delivered renewal's event told it")
        var expired = before
        expired.status = .expired
        #expect(SubscriptionEventRule.changes(before: before, after: expired, renewalToldAlready: false).map(\.type) == [.subscriptionExpired])
        #expect(SubscriptionEventRule.changes(before: expired, after: expired, renewalToldAlready: false).isEmpty, "expired once, told once")
        var moved = renewed
        moved.ownerAccount = "B"
        let transfer = SubscriptionEventRule.changes(before: before, after: moved, renewalToldAlready: false)
        #expect(transfer.map(\.account) == ["A", "B"] && transfer.map(\.gives) == [false, true] && transfer.allSatisfy { $0.type == .ownershipTransferred })
        var refunded = renewed
        refunded.status = .refunded
        #expect(SubscriptionEventRule.changes(before: before, after: refunded, renewalToldAlready: false).isEmpty, "a refund is told by its order's event")
        var autoRenewOff = before
        autoRenewOff.autoRenew = false
        #expect(SubscriptionEventRule.changes(before: before, after: autoRenewOff, renewalToldAlready: false).isEmpty)
    }
}
