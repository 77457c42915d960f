import OrderDomain
@_spi(BulkLoad) import OrderStore

/// A typed SQL NULL for row literals.
private let NULL: String? = nil
/// A typed NULL for integer columns (PostgreSQL checks the bind type).
private let NONE: Int64? = nil

/// Walks through the synthetic history order by order, keeping what later orders depend
/// on (who owns which subscription, which accounts own the non-consumable, the audit chain).
struct Generator {
    let plan: SyntheticStore
    var random: SeededRandom
    let accountCount: Int
    var index = 0
    var submissionId: Int64 = 0
    var stateCounts: [OrderState: Int64] = [:]
    var transactionCount = 0
    var orphanCount = 0
    var disputeCount = 0
    /// Original transaction id → its subscription as the rules left it.
    var subscriptions: [String: (owner: String, product: String, expires: Millis, autoRenew: Bool, since: Millis, store: Marketplace)] = [:]
    var noAdsOwners: [Int: String] = [:]  // account index → the order that bought it
    var recentConsumables: [(tid: String, orderId: String, account: String, store: Marketplace)] = []
    /// Google Play subscription chains by their first order id: the periods ordered so far
    /// (a renewal's order id is the first's with `..N`) and what Google reports of its token.
    var playChains: [String: PlayChainFacts] = [:]
    /// Apple's side of each paid order, kept only when the plan signs receipts.
    var purchases: [SyntheticPurchase] = []
    /// Original transaction id → the index in `purchases` of its latest period.
    private var latestPeriod: [String: Int] = [:]
    private let types = Dictionary(uniqueKeysWithValues: DemoCatalogue.products.map { ($0.productId, $0.type) })
    /// The audit chain the history extends, from the store's bulk load.
    var audit: BulkAuditChain

    init(plan: SyntheticStore, audit: BulkAuditChain) {
        self.plan = plan
        self.audit = audit
        random = SeededRandom(seed: plan.seed)
        accountCount = max(10, plan.orders / 5)
    }

    /// The moves the history audits, as their entries keep them (written many times, made once).
    private static let handDelivered = AuditDetail.Move(from: .verifyRetry, to: .delivered).storedText
    private static let refunded = AuditDetail.Move(from: .delivered, to: .refunded).storedText
    private static let rejected = AuditDetail.Move(from: .receiptReceived, to: .rejected).storedText
    private static let disputed = AuditDetail.Move(from: .verified, to: .disputed).storedText

    private static let productWeights: [(String, Double)] = [
        ("coins_60", 0.34), ("coins_300", 0.20), ("coins_980", 0.08), ("no_ads", 0.04), ("pass_30d", 0.08), ("vip_monthly", 0.21), ("gift_pack", 0.05),
    ]

    private mutating func pickProduct() -> String {
        var r = Double(random.next() >> 11) / Double(1 << 53)
        for (product, weight) in Self.productWeights {
            if r < weight { return product }
            r -= weight
        }
        return "coins_60"
    }

    private func account(_ index: Int) -> String {
        index < DemoCatalogue.hostileAccounts.count ? DemoCatalogue.hostileAccounts[index] : "p\(1_000_000 + index)"
    }

    private func padded(_ n: Int, _ width: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    mutating func rows(count: Int) throws -> BulkRows {
        var rows = BulkRows()
        for _ in 0..<count {
            try order(into: &rows)
            index += 1
        }
        return rows
    }

    private mutating func order(into rows: inout BulkRows) throws {
        let i = index
        let created = plan.anchor - plan.span + plan.span * Millis(i) / Millis(max(plan.orders, 1)) + random.millis(0...59_000)
        let age = plan.anchor - created
        let product = pickProduct()
        var accountIndex = random.int(0...(accountCount - 1))
        if product == "vip_monthly" { accountIndex -= accountIndex % 8 }  // subscribers are one account in eight
        let accountId = account(accountIndex)
        let orderId = "ord_" + padded(i + 1, 9)
        // Paid at Google for the plan's share of orders. No number is drawn without one, so
        // an App Store history is the same whichever version generated it.
        let store: Marketplace = plan.playShare > 0 && random.chance(plan.playShare) ? .googlePlay : .appStore
        let play = store == .googlePlay
        var tid = play ? googleOrderId(33_000_000_000_000_000 + i) : String(200_000_000_000_000 + i)
        let environment: AppleEnvironment = random.chance(0.005) ? .sandbox : .production
        let paidAt = created + random.millis(5_000...90_000)
        let settledAt = paidAt + random.millis(3_000...6_000)  // Apple takes 3–6 s [S2]

        var state = OrderState.delivered
        var why: Why?
        var appleRefusal: Int?
        var replay = false
        var manual = false
        var otid = tid
        var line: String?
        var shared = false
        let r = Double(random.next() >> 11) / Double(1 << 53)
        let recent = age < .hours(96)
        // 4 % never paid; recent orders 6 % still paid-but-undelivered, older ones 0.05 %
        // (Apple never answered: past the R4 window); then 2.5 % rejected, 1 % refunded.
        let undelivered = recent ? 0.10 : 0.0405
        switch r {
        case ..<0.04: state = .pendingPayment
        case ..<undelivered:
            state = recent ? [OrderState.receiptReceived, .verifyRetry, .verifyRetry, .verifyRetry, .verified][random.int(0...4)] : .verifyRetry
        case ..<(undelivered + 0.025):
            state = .rejected
            // Apple's status where Apple refused it (its attempt records the status); none for the store's own check.
            (appleRefusal, why) =
                play
                ? (nil, Self.playRejections[random.int(0...2)])
                : [
                    (21003, Why(.appleStatus(21003))), (21010, Why(.appleStatus(21010))), (nil, Self.crackedCopy), (21004, Why(.sharedSecretRejected)),
                ][random.int(0...3)]
        case ..<(undelivered + 0.035): state = .refunded
        default: manual = random.chance(0.03)
        }

        switch product {
        case "vip_monthly":
            shared = random.chance(0.03)
            let subscriber = shared ? accountIndex ^ 8 : accountIndex
            if play {
                // One token per chain: a renewal keeps it, and a shared Google account's
                // second game account submits the same token.
                otid = googleOrderId(34_000_000_000_000_000 + subscriber)
                let periods = playChains[otid]?.periods ?? 0
                tid = periods == 0 ? otid : "\(otid)..\(periods - 1)"
                playChains[otid, default: PlayChainFacts(token: Self.purchaseToken(otid), product: product)].periods = periods + 1
            } else {
                otid = String(300_000_000_000_000 + subscriber)
                line = String(400_000_000_000_000 + i)
            }
        case "pass_30d":
            line = play ? nil : String(400_000_000_000_000 + i)
        case "no_ads":
            otid = play ? googleOrderId(35_000_000_000_000_000 + accountIndex) : String(500_000_000_000_000 + accountIndex)
            if [.delivered, .refunded, .verified].contains(state), let first = noAdsOwners[accountIndex] {
                state = .rejected
                replay = true
                appleRefusal = nil
                why = Why(.replay, ReasonParticulars(holder: PurchaseHolder(order: first, account: accountId, key: "otid:\(otid)")))
            }
        default:
            if state == .delivered, random.chance(0.004), let victim = recentConsumables.last, victim.orderId != orderId, victim.store == store {
                state = .rejected
                replay = true
                appleRefusal = nil
                why = Why(.replay, ReasonParticulars(holder: PurchaseHolder(order: victim.orderId, account: victim.account, key: "tid:\(victim.tid)")))
            }
        }

        // R8 for a receipt of someone else's subscription, decided by the rule itself on
        // what the store knew: the owner's renewal intent and the end of their last period.
        var disputed = false
        var missedOwnerRefund = false
        if product == "vip_monthly", state == .delivered || state == .verified, let sub = subscriptions[otid], sub.owner != accountId {
            let owner = OwnershipRule.OwnerFacts(accountId: sub.owner, autoRenew: sub.autoRenew, periodEnd: sub.expires)
            let decision = OwnershipRule.decide(owner: owner, submitter: accountId, purchasedAt: paidAt)
            switch decision {
            case .ownerKeeps:
                if recent {
                    state = .disputed
                    disputed = true
                    // Every other dispute hides a refund of the owner's last period that
                    // Apple made and the store never heard of: re-verifying settles it.
                    missedOwnerRefund = disputeCount % 2 == 0
                    disputeCount += 1
                } else {
                    state = .rejected
                    appleRefusal = nil
                    why = Why(.disputeSettled, ReasonParticulars(note: "shared Apple ID"))
                }
            case .transfer:
                subscriptions[otid]?.owner = accountId
                subscriptions[otid]?.since = settledAt
            case .firstOwner, .sameOwner:
                break
            }
            rows.ownership.append([
                otid, orderId, accountId, sub.owner, state == .disputed || state == .rejected ? sub.owner : accountId,
                settledAt, "rule", decision.verdict.rawValue, "", try decision.json(), decision.needsReview && state != .rejected ? 1 : 0,
            ])
        }

        let paid = state != .pendingPayment
        let claimsPurchase: Bool =
            switch state {
            case .delivered, .refunded, .verified, .disputed: true
            default: false
            }
        var stuckSince: Millis?
        var attempts = 0
        var firstFailure: Millis?
        var nextRetry: Millis?
        var needsOperator = false
        var changedAt = paid ? settledAt : created
        if state.isPaidUndelivered {
            stuckSince = paidAt
            changedAt = paidAt
        }
        if state == .verifyRetry {
            firstFailure = settledAt
            var at = settledAt
            attempts = 1
            while at + RetrySchedule.delay(afterFailure: attempts) < plan.anchor, at - settledAt < RetrySchedule.window {
                at += RetrySchedule.delay(afterFailure: attempts)
                attempts += 1
            }
            changedAt = at
            nextRetry = RetrySchedule.nextAttempt(afterFailure: attempts, firstFailureAt: settledAt, now: at)
            needsOperator = nextRetry == nil
            why =
                play
                ? Self.playRetries[random.int(0...2)]
                : [
                    Why(.appleStatus(21005)), Why(.storeUnreachable(.appStore), ReasonParticulars(message: "timed out after 30 s")),
                    Why(.storeServerError(.appStore, http: 503)), Why(.appleStatus(21009)),
                ][random.int(0...3)]
        }

        let version: Int64 = paid ? (state == .delivered ? 4 : 3) : 1
        let purchaseOrderTid = claimsPurchase ? tid : nil
        rows.orders.append([
            orderId, accountId, product, 1, created, state.rawValue, changedAt, version,
            manual ? "ops-lin" : "system", stuckSince, paid ? environment.rawValue : nil,
            purchaseOrderTid, claimsPurchase ? otid : NULL, attempts, firstFailure, nextRetry, try why?.particulars.json(), why?.reason.code,
            needsOperator ? 1 : 0, replay ? 1 : 0, DemoCatalogue.bundleId, store.rawValue,
        ])
        stateCounts[state, default: 0] += 1
        // What the worker owes these orders, as the store would have enqueued it.
        if state == .receiptReceived || state == .verified || nextRetry != nil {
            rows.jobs.append([JobKind.verify.rawValue, orderId, nextRetry ?? changedAt, changedAt])
        }
        guard paid else { return }

        submissionId += 1
        let claimed: String? = random.chance(0.7) ? tid : nil
        var receipt = "MIIT" + padded(i * 7919 % 1_000_003, 12) + "AAAA"
        var adopted: Int?
        let token = play ? product == "vip_monthly" ? playChains[otid]?.token : Self.purchaseToken(tid) : nil
        if let token {
            receipt = try PlaySubmission(packageName: DemoCatalogue.bundleId, productId: product, purchaseToken: token).storedText
        }
        if let signer = plan.signer, !play, claimsPurchase || state.isPaidUndelivered, let type = types[product] {
            let subscriber = product == "vip_monthly" ? subscriptions[otid]?.owner : nil
            let purchase = SyntheticPurchase(
                orderId: orderId, appleAccount: "apple:" + (subscriber ?? accountId), productId: product, type: type, transactionId: tid,
                originalTransactionId: otid, webOrderLineItemId: line, purchasedAt: paidAt,
                expiresAt: product == "vip_monthly" || product == "pass_30d" ? paidAt + .hours(24 * 30) : nil,
                cancelledAt: state == .refunded ? settledAt + .hours(30) : nil, environment: environment,
                autoRenew: product == "vip_monthly" ? subscriptions[otid]?.autoRenew ?? true : false)
            if missedOwnerRefund, let last = latestPeriod[otid], purchases[last].purchasedAt < paidAt - .hours(72) {
                purchases[last].cancelledAt = paidAt - .hours(48)
            }
            // Signing takes a while; only orders still waiting for Apple are re-verified from
            // their receipt. Delivered ones are asked about by their transaction id.
            if state.isPaidUndelivered { receipt = try signer(purchase) }
            if product == "vip_monthly", !disputed { latestPeriod[otid] = purchases.count }
            adopted = purchases.count
            purchases.append(purchase)
        }
        rows.submissions.append([
            submissionId, orderId, accountId, claimed, "client", receipt, paidAt, token,
            play ? EvidenceKind.googlePlay.rawValue : EvidenceKind.appReceipt.rawValue,
        ])
        let body = "{\"status\":0,\"environment\":\"\(environment.rawValue)\"}"
        let method = play ? VerificationMethod.googlePlay.rawValue : VerificationMethod.verifyReceipt.rawValue
        switch state {
        case .verifyRetry:
            for n in max(1, attempts - 2)...attempts {
                rows.attempts.append([
                    orderId, submissionId, settledAt + Millis(n) * 10_000, method, NULL, "retryable", NONE,
                    NONE, 30_000, try why?.json(), NULL,
                ])
            }
        case .receiptReceived:
            break
        case .rejected where play:
            let http = if case .googleUnknownPurchase(let http) = why?.reason { http } else { 200 }
            rows.attempts.append([
                orderId, submissionId, settledAt, method, environment.rawValue, "final", NONE, http, random.int(80...400), try why?.json(), NULL,
            ])
        case .rejected where appleRefusal != nil:
            let status = appleRefusal ?? 21003
            rows.attempts.append([
                orderId, submissionId, settledAt, "verify_receipt", environment.rawValue, "final", status, 200,
                random.int(2_800...6_200), try why?.json(), "{\"status\":\(status)}",
            ])
        default:
            rows.attempts.append([
                orderId, submissionId, settledAt, method, environment.rawValue, "valid", play ? NONE : 0, 200,
                play ? random.int(80...400) : random.int(2_800...6_200), NULL, play ? NULL : body,
            ])
        }
        if let token, claimsPurchase || state.isPaidUndelivered {
            if product == "vip_monthly" {
                playChains[otid]?.latest(order: tid, account: accountId, paidAt: paidAt, test: environment == .sandbox)
            } else {
                let acknowledged = state == .delivered || state == .refunded
                rows.playPurchases.append(
                    PlayChainFacts(token: token, product: product).row(
                        kind: .oneTime, order: tid, account: accountId, purchasedAt: paidAt, expires: nil, autoRenew: nil,
                        acknowledgedAt: acknowledged ? settledAt : nil,
                        consumed: acknowledged && product.hasPrefix("coins"), test: environment == .sandbox, seenAt: settledAt))
            }
        }

        if claimsPurchase {
            let expires: Millis? = product == "vip_monthly" ? paidAt + .hours(24 * 30) : nil
            let cancelled: Millis? = state == .refunded ? settledAt + random.millis(.hours(1)...(.hours(24 * 10))) : nil
            rows.transactions.append([
                tid, otid, product, 1, paidAt, paidAt, expires, cancelled, cancelled == nil ? NONE : 0, line,
                "PURCHASED", environment.rawValue, orderId, accountId, settledAt, token,
            ])
            transactionCount += 1
            var keys = ["tid:\(tid)"]
            if product == "no_ads" { keys.append("otid:\(otid)"); noAdsOwners[accountIndex] = orderId }
            if let line { keys.append("wol:\(line)") }
            for key in keys { rows.claims.append([key, orderId, accountId, tid, settledAt]) }
            if product.hasPrefix("coins") { recentConsumables = [(tid, orderId, accountId, store)] }
            if product == "vip_monthly", subscriptions[otid] == nil {
                subscriptions[otid] = (accountId, product, expires ?? paidAt, random.chance(0.8), settledAt, store)
                rows.ownership.append([
                    otid, orderId, accountId, NULL, accountId, settledAt, "rule", "first_owner",
                    "", try OwnershipRule.Decision.firstOwner(accountId).json(), 0,
                ])
            } else if product == "vip_monthly", let expires, !disputed {
                let known = subscriptions[otid]?.expires ?? expires
                subscriptions[otid]?.expires = max(known, expires)
            }
        }
        if let adopted, product == "vip_monthly", let renews = subscriptions[otid]?.autoRenew { purchases[adopted].autoRenew = renews }
        switch state {
        case .delivered:
            let grantedAt = manual ? settledAt + random.millis(.minutes(10)...(.hours(20))) : settledAt
            let reason: String? = manual ? "ticket #\(10_000 + i % 90_000): paid, Apple timed out; receipt checked by hand" : nil
            rows.grants.append([
                orderId, accountId, tid, manual ? "manual" : "automatic", manual ? "ops-lin" : "system", reason,
                grantedAt, NONE, NULL, NULL, NULL,
            ])
            if manual {
                try audit.append(
                    to: &rows, at: grantedAt, actor: "ops-lin", role: .support, action: .grant, target: .order(orderId), reason: reason,
                    detail: Self.handDelivered)
            }
        case .refunded:
            let refundedAt = settledAt + .hours(30)
            let refund = Why(.refunded(store), ReasonParticulars(transactionId: tid))
            rows.grants.append([
                orderId, accountId, tid, "automatic", "system", NULL, settledAt, refundedAt, play ? "google" : "apple", NULL, try refund.json(),
            ])
            try audit.append(
                to: &rows, at: refundedAt, actor: "system", role: .rule, action: .refund, target: .order(orderId), reason: nil, because: refund,
                detail: Self.refunded)
        case .rejected:
            if replay {
                rows.flags.append([accountId, "replay", orderId, "", try why?.json(), settledAt])
                try audit.append(
                    to: &rows, at: settledAt, actor: "system", role: .rule, action: .verifyReplay, target: .order(orderId), reason: nil, because: why,
                    detail: Self.rejected)
            } else {
                try audit.append(
                    to: &rows, at: settledAt, actor: "system", role: .rule, action: .verifyRejected, target: .order(orderId), reason: nil, because: why,
                    detail: Self.rejected)
            }
        case .disputed:
            try audit.append(
                to: &rows, at: settledAt, actor: "system", role: .rule, action: .ownershipDisputed, target: .order(orderId), reason: nil, because: why,
                detail: Self.disputed)
        default:
            break
        }
        if !play, random.chance(0.003) {  // a purchase Apple knows that the client never reported
            let orphan = String(600_000_000_000_000 + i)
            rows.transactions.append([
                orphan, orphan, "coins_300", 1, paidAt, paidAt, NONE, NONE, NONE, NULL, "PURCHASED",
                environment.rawValue, NULL, NULL, settledAt, NULL,
            ])
            orphanCount += 1
        }
    }

    /// The subscriptions as the history left them, once every order is generated.
    func subscriptionRows() -> BulkRows {
        var rows = BulkRows()
        for (otid, sub) in subscriptions.sorted(by: { $0.key < $1.key }) {
            rows.subscriptions.append([
                otid, sub.owner, sub.product, sub.expires > plan.anchor ? "active" : "expired", sub.autoRenew ? 1 : 0,
                sub.expires, sub.since, "rule", sub.since, sub.store.rawValue,
            ])
        }
        for (otid, chain) in playChains.sorted(by: { $0.key < $1.key }) {
            guard let order = chain.latestOrder, let account = chain.account, let paidAt = chain.paidAt else { continue }
            let sub = subscriptions[otid]
            let expires = sub?.expires ?? paidAt + .hours(24 * 30)
            rows.playPurchases.append(
                chain.row(
                    kind: .subscription, order: order, account: account, purchasedAt: chain.firstPaidAt ?? paidAt, expires: expires,
                    autoRenew: sub?.autoRenew ?? true, acknowledgedAt: paidAt, consumed: false, test: chain.test, seenAt: paidAt,
                    subscriptionState: expires > plan.anchor ? "SUBSCRIPTION_STATE_ACTIVE" : "SUBSCRIPTION_STATE_EXPIRED"))
        }
        return rows
    }

    /// Google's order id for a number: `GPA.3300-0000-0000-00001` (four, four, four, five digits).
    private func googleOrderId(_ n: Int) -> String {
        let d = Array(padded(n, 17))
        return "GPA.\(String(d[0..<4]))-\(String(d[4..<8]))-\(String(d[8..<12]))-\(String(d[12..<17]))"
    }

    /// A purchase token, as opaque as Google's and unique per order id (per chain for a subscription).
    private static func purchaseToken(_ googleOrderId: String) -> String {
        let digits = googleOrderId.filter(\.isNumber)
        return "synthetic" + String(digits.reversed()) + ".AO-J1Oz" + digits
    }

    /// Why Google's purchases are rejected: a token Google does not know, one cancelled
    /// before payment, a package that is not ours.
    private static let playRejections: [Why] = [
        Why(.googleUnknownPurchase(http: 404)), Why(.googleCancelledBeforePayment), crackedCopy,
    ]

    /// A receipt of a re-signed copy of the app: R5's bundle id check turns it down.
    private static let crackedCopy = Why(
        .checkFailed(.bundleId),
        ReasonParticulars(check: ReceiptCheck(name: .bundleId, passed: false, evidence: .differs(found: "com.cracked.copy", expected: DemoCatalogue.bundleId))))

    /// Why Google had no answer yet.
    private static let playRetries: [Why] = [
        Why(.storeUnreachable(.googlePlay), ReasonParticulars(message: "timed out after 15 s")), Why(.storeServerError(.googlePlay, http: 503)),
        Why(.storeRateLimited(.googlePlay)),
    ]
}
