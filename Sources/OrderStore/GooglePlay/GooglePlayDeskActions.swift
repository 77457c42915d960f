import OrderDomain
import SQLKit

/// What support does on Google's side, each for the roles that may and audited with the
/// reason: the acknowledgement queue, refunds, attaching a purchase the game never sent,
/// deferring and revoking subscriptions. Google is asked through a closure (`tell`), so the
/// store never holds the client; a refusal comes back as Google said it and changes nothing.
extension GooglePlayPurchases {
    /// Asks Google to refund a delivered Google Play order (`orders.refund`), audited with the
    /// operator's reason. With `revoke` Google voids the purchase: its voided-purchase
    /// notification (or the sweep) takes back what it paid for here and tells the game (R9),
    /// the one way every refund is applied. Without, the money goes back and the purchase
    /// stays. `tell` calls Google: nil when it took the request, else its refusal, returned
    /// as Google said it (nothing is audited then).
    public func refund(
        orderId: String, revoke: Bool, by actor: Operator, reason: String, at now: Millis = .now(),
        tell: @Sendable (_ package: String, _ googleOrderId: String, _ revoke: Bool) async -> String?
    ) async throws -> String? {
        try store.requireOperator(actor, may: .refundPlayOrder, reason: reason)
        guard let order = try await store.orders.find(orderId) else { throw StoreError.notFound(kind: .order, id: orderId) }
        guard order.marketplace == .googlePlay, let googleOrderId = order.transactionId, let package = order.app else {
            throw StoreError.notPaidIn(.googlePlay, id: "order \(orderId)")
        }
        guard order.state == .delivered else { throw StoreError.illegalTransition(orderId: orderId, from: order.state, to: .refunded) }
        if let refusal = await tell(package, googleOrderId, revoke) { return refusal }
        try await store.write(as: actor, now: now) { tx in
            tx.audit(
                .googleRefund, target: .order(orderId), reason: reason,
                .playRefundAsked(googleOrderId: googleOrderId, revoke: revoke))
        }
        return nil
    }

    /// Attaches a Google Play purchase no order submitted (the game never sent its token; the
    /// Orders API named it) to the order it paid for: stored as an operator's submission (R1),
    /// audited with the reason, then `verify`'s answer from Google goes through the rules as
    /// the game's own submission would (R5 the product, R7 a purchase held elsewhere), so it
    /// is delivered once or refused with the rules' reason.
    public func attach(
        purchaseToken token: String, package: String, to orderId: String, by actor: Operator, reason: String, at now: Millis = .now(),
        verify: @Sendable (_ evidence: PurchaseEvidence) async -> VerificationReport
    ) async throws -> VerificationOutcome {
        try store.requireOperator(actor, may: .attachPlayPurchase, reason: reason)
        guard let order = try await store.orders.find(orderId) else { throw StoreError.notFound(kind: .order, id: orderId) }
        if order.transactionId != nil { throw StoreError.hasTransaction(orderId: orderId, state: order.state) }
        let evidence = PurchaseEvidence.googlePlay(PlaySubmission(packageName: package, productId: order.productId, purchaseToken: token))
        let submission = try await store.orders.submit(orderId: orderId, evidence: evidence, source: .operator, at: now)
        try await store.write(as: actor, now: now) { tx in
            tx.audit(.googleAttach, target: .order(orderId), reason: reason, .playAttached(tokenPrefix: String(token.prefix(24))))
        }
        return try await store.apple.apply(orderId: orderId, submissionId: submission, report: await verify(evidence))
    }

    /// The longest deferral the desk asks of Google at once, in days.
    public static let maxDeferDays = 365

    /// Defers a Google Play subscription's next renewal by `days` (Play's only extension:
    /// `subscriptionsv2.defer` on its latest token), for admins, audited with the reason.
    /// The new end is Google's; the game hears of it as a renewal, as of Apple's extension.
    /// `tell` asks Google; its refusal is returned as Google said it and changes nothing.
    public func deferRenewal(
        originalTransactionId otid: String, days: Int, by actor: Operator, reason: String, at now: Millis = .now(),
        tell: @Sendable (_ package: String, _ purchaseToken: String, _ seconds: Int64) async -> PlayDeferAnswer
    ) async throws -> PlayDeferAnswer {
        try store.requireOperator(actor, may: .deferSubscriptions, reason: reason, minimum: .admin)
        guard (1...Self.maxDeferDays).contains(days) else {
            throw StoreError.deferRefused(originalTransactionId: otid, .days(days, max: Self.maxDeferDays))
        }
        let latest = try await latestToken(of: otid)
        guard latest.status == .active else {
            throw StoreError.deferRefused(originalTransactionId: otid, .notActive(latest.status))
        }
        let answer = await tell(latest.package, latest.token, Int64(days) * 86_400)
        guard case .deferred(let end) = answer else { return answer }
        try await store.write(as: actor, now: now) { tx in
            try await tx.extendExpiry(otid, to: end)
            tx.audit(.googleDeferred, target: .originalTransaction(otid), reason: reason, .playDeferred(days: days, newEnd: end))
        }
        return answer
    }

    /// Revokes a Google Play subscription at Google (`subscriptionsv2.revoke`): access ends
    /// now and Google refunds in full (or `prorated`, the unused time). Google then voids the
    /// purchase and says so; that notice applies R9 here as every refund. Audited with the
    /// reason; `tell` returns Google's refusal, as Google said it, and nothing changes then.
    public func revokeSubscription(
        originalTransactionId otid: String, prorated: Bool, by actor: Operator, reason: String, at now: Millis = .now(),
        tell: @Sendable (_ package: String, _ purchaseToken: String, _ prorated: Bool) async -> String?
    ) async throws -> String? {
        try store.requireOperator(actor, may: .revokePlaySubscription, reason: reason)
        let latest = try await latestToken(of: otid)
        if let refusal = await tell(latest.package, latest.token, prorated) { return refusal }
        try await store.write(as: actor, now: now) { tx in
            tx.audit(
                .googleRevoke, target: .originalTransaction(otid), reason: reason,
                .playRevokeAsked(prorated: prorated))
        }
        return nil
    }

    /// A Google Play subscription's latest purchase token, its package, and its status here.
    private func latestToken(of otid: String) async throws -> (token: String, package: String, status: SubscriptionStatus?) {
        let found = try await store.read { sql -> (status: SubscriptionStatus?, token: String?, package: String?) in
            let status = try await sql.row("SELECT status FROM subscriptions WHERE original_transaction_id = \(bind: otid)")?
                .optionalValue("status", as: SubscriptionStatus.self)
            let token = try await sql.row(
                """
                SELECT t.purchase_token, p.package_name FROM transactions t JOIN play_purchases p ON p.purchase_token = t.purchase_token
                WHERE t.original_transaction_id = \(bind: otid) ORDER BY t.purchase_date DESC LIMIT 1
                """)
            return (status, try token?.optionalString("purchase_token"), try token?.optionalString("package_name"))
        }
        guard let token = found.token, let package = found.package else { throw StoreError.notPaidIn(.googlePlay, id: "subscription \(otid)") }
        return (token, package, found.status)
    }

    /// Every paid purchase not yet acknowledged at Google, soonest deadline first, with the
    /// order that holds it (nil while no order does): the desk's acknowledgement queue.
    public func owedAcknowledgements(limit: Int = 200) async throws -> [OwedAcknowledgement] {
        try await store.read { sql in
            try await sql.rows(
                """
                SELECT \(unsafeRaw: StoredPlayPurchase.Column.list(of: "p")), COALESCE(
                  (SELECT t.order_id FROM transactions t WHERE t.purchase_token = p.purchase_token AND t.order_id IS NOT NULL
                   ORDER BY t.purchase_date LIMIT 1),
                  (SELECT s.order_id FROM receipt_submissions s WHERE s.purchase_token = p.purchase_token ORDER BY s.id DESC LIMIT 1)) AS holder
                FROM play_purchases p WHERE p.acknowledged = 0 AND p.acknowledge_by IS NOT NULL
                ORDER BY p.acknowledge_by, p.purchase_token LIMIT \(literal: limit)
                """
            ).map { OwedAcknowledgement(purchase: try StoredPlayPurchase(row: $0), orderId: try $0.optionalString("holder")) }
        }
    }

    /// The purchase tokens an order holds: the one it submitted, and those its purchases
    /// were paid under (a subscription's plan changes).
    public func tokens(ofOrder orderId: String) async throws -> [String] {
        try await store.read { sql in
            try await sql.rows(
                """
                SELECT purchase_token FROM receipt_submissions WHERE order_id = \(bind: orderId) AND purchase_token IS NOT NULL
                UNION SELECT purchase_token FROM transactions WHERE order_id = \(bind: orderId) AND purchase_token IS NOT NULL
                """
            ).map { try $0.string("purchase_token") }
        }
    }

    /// Defers every active Google Play subscription of `productId` by `days` (after an outage:
    /// Play has no mass extension, so each is deferred on its own, one after another, each
    /// audited), reporting after each one. `shouldContinue` stops before the next.
    public func deferAll(
        productId: String, days: Int, by actor: Operator, reason: String, shouldContinue: @Sendable () -> Bool = { true },
        progress: @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in },
        tell: @Sendable (_ package: String, _ purchaseToken: String, _ seconds: Int64) async -> PlayDeferAnswer
    ) async throws -> PlayDeferAllSummary {
        try store.requireOperator(actor, may: .deferSubscriptions, reason: reason, minimum: .admin)
        let subscriptions = try await store.read { sql in
            try await sql.rows(
                """
                SELECT s.original_transaction_id FROM subscriptions s WHERE s.product_id = \(bind: productId) AND s.status = 'active'
                  AND EXISTS (SELECT 1 FROM transactions t WHERE t.original_transaction_id = s.original_transaction_id AND t.purchase_token IS NOT NULL)
                ORDER BY s.original_transaction_id
                """
            ).map { try $0.string("original_transaction_id") }
        }
        var summary = PlayDeferAllSummary(total: subscriptions.count)
        for otid in subscriptions {
            guard shouldContinue() else { break }
            do {
                switch try await deferRenewal(originalTransactionId: otid, days: days, by: actor, reason: reason, tell: tell) {
                case .deferred: summary.deferred += 1
                case .refused(let why): summary.refused.append((otid, .google(why)))
                }
            } catch {
                summary.refused.append((otid, .failed(error)))
            }
            summary.done += 1
            progress(summary.done, summary.total)
        }
        return summary
    }
}
