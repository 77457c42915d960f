import OrderDomain
import SQLKit

extension OrderStore {
    /// Google Play's side of the store: purchase tokens kept as Google reports them, what a
    /// notification's question to Google came to, voided purchases, and the acknowledgement
    /// Google's three-day rule asks for.
    public var googlePlay: GooglePlayPurchases { GooglePlayPurchases(store: self) }
}

/// What a Google Play answer about a token did (``GooglePlayPurchases/refresh(purchaseToken:report:voided:at:)``).
public enum PlayRefreshOutcome: Sendable, Equatable {
    /// An order holds the token: the answer went through the rules for it.
    case applied(orderId: String, state: OrderState)
    /// No order holds it yet: Google's facts are kept for the order that submits it (an
    /// orphan support sees), and a subscription's owner is told its news.
    case kept
    /// Google could not answer: the job tries again.
    case unanswered(Why)
}

/// What the worker asks Google about a purchase token (``GooglePlayPurchases/refreshTarget(purchaseToken:)``).
public struct PlayRefreshTarget: Sendable, Equatable {
    public var packageName: String
    /// Nil when neither the store nor a notification says.
    public var kind: PlayPurchaseFacts.Kind?
    /// Set after a refund notification: read the voided purchases from then.
    public var voidedSince: Millis?
}

/// The Google Play purchases of one store (``OrderStore/googlePlay``).
public struct GooglePlayPurchases: Sendable {
    let store: OrderStore

    /// What the store keeps of a token; nil for one Google never told it about.
    public func purchase(token: String) async throws -> StoredPlayPurchase? {
        try await store.read { sql in
            try await sql.row("SELECT \(unsafeRaw: StoredPlayPurchase.Column.list) FROM play_purchases WHERE purchase_token = \(bind: token)").map(
                StoredPlayPurchase.init(row:))
        }
    }

    /// What the worker needs to ask Google about `token`: its package and kind (as kept, or
    /// as its notifications say), and, after a refund notification, since when to read the
    /// voided purchases. Nil for a token the store has never heard of.
    public func refreshTarget(purchaseToken token: String) async throws -> PlayRefreshTarget? {
        try await store.read { sql in
            let stored = try await sql.row("SELECT package_name, kind FROM play_purchases WHERE purchase_token = \(bind: token)")
            let notes = try await sql.rows(
                """
                SELECT type, signed_date, app FROM notifications WHERE apply_key = \(bind: "play:\(token)") AND rejection IS NULL
                ORDER BY id DESC LIMIT 20
                """)
            guard let package = try stored?.optionalString("package_name") ?? notes.first?.optionalString("app") else { return nil }
            var kind = try stored?.optionalValue("kind", as: PlayPurchaseFacts.Kind.self)
            var voidedSince: Millis?
            for note in notes {
                let type = try note.optionalString("type") ?? ""
                if kind == nil, type.hasPrefix("SUBSCRIPTION_") { kind = .subscription }
                if kind == nil, type.hasPrefix("ONE_TIME_PRODUCT_") { kind = .oneTime }
                if type == PlayNotificationType.voided || type == "SUBSCRIPTION_REVOKED", let at = try note.optionalInt64("signed_date") {
                    voidedSince = min(voidedSince ?? at, at) - .hours(1)
                }
            }
            return PlayRefreshTarget(packageName: package, kind: kind, voidedSince: voidedSince)
        }
    }

    /// Google's answer about `token` (asked because a notification named it) through the
    /// rules: for the order holding it (a delivered one rechecked, a waiting one verified at
    /// once: a pending payment settled), or kept for the order that will submit it. Voided
    /// orders Google listed for it are refunds (R9), applied as Apple's are.
    @discardableResult
    public func refresh(purchaseToken token: String, report: VerificationReport, voided: [PlayVoidedPurchase] = [], at now: Millis = .now())
        async throws -> PlayRefreshOutcome
    {
        if !voided.isEmpty { try await receiveVoided(voided, at: now) }
        switch StatusCodeRule.classify(report) {
        case .retryable(let why), .configuration(let why): return .unanswered(why)
        case .final, .valid, .validExpired: break
        }
        if let holder = try await holder(of: token) {
            let outcome = try await store.apple.apply(orderId: holder.orderId, submissionId: holder.submissionId, report: report, at: now)
            return .applied(orderId: holder.orderId, state: outcome.order.state)
        }
        guard let play = report.play else { return .kept }
        try await store.write(as: .system, now: now) { tx in
            let content = try await tx.keepPlayPurchase(play, content: report.content)
            guard let content else { return }
            try await tx.storeTransactions(content.inApp + content.latestReceiptInfo, environment: report.environment)
            // A plan change's new token belongs to the subscription its chain is: its owner
            // (R8) holds it, and Google wants it acknowledged like the first.
            guard let otid = content.latestReceiptInfo.first?.originalTransactionId, let row = try await tx.subscriptionRow(otid) else { return }
            try await store.refreshSubscriptionFacts(tx, otid: otid, content: content, source: .googlePlay)
            if row.ownerAccount != nil, !play.acknowledged, play.state == .purchased {
                try await tx.enqueue(.playAcknowledge(purchaseToken: token), dueAt: tx.now)
            }
        }
        return .kept
    }

    /// The order a token belongs to: the one claiming a purchase paid under it, else the
    /// latest that submitted it and still waits for its verdict.
    private func holder(of token: String) async throws -> (orderId: String, submissionId: Int64?)? {
        try await store.read { sql in
            if let claimed = try await sql.row(
                """
                SELECT order_id FROM transactions WHERE purchase_token = \(bind: token) AND order_id IS NOT NULL ORDER BY purchase_date DESC LIMIT 1
                """)
            {
                return (try claimed.string("order_id"), nil)
            }
            guard
                let submitted = try await sql.row(
                    """
                    SELECT s.id, s.order_id FROM receipt_submissions s JOIN orders o ON o.order_id = s.order_id
                    WHERE s.purchase_token = \(bind: token) AND o.state IN ('receipt_received', 'verify_retry') ORDER BY s.id DESC LIMIT 1
                    """)
            else { return nil }
            return (try submitted.string("order_id"), try submitted.int64("id"))
        }
    }

    /// Voided purchases as refunds: each kept as a notification (once per order and time)
    /// and applied by the worker as Apple's REFUND is (R9), a quantity-based one as a
    /// partial refund of its share. Returns how many were new.
    @discardableResult
    public func receiveVoided(_ voided: [PlayVoidedPurchase], at now: Millis = .now()) async throws -> Int {
        try await store.write(as: .system, now: now) { tx in
            var new = 0
            for record in voided.sorted(by: { ($0.voidedTime, $0.orderId) < ($1.voidedTime, $1.orderId) }) {
                let facts = try await tx.refundFacts(record, among: voided)
                let incoming = IncomingNotification(
                    endpoint: facts.environment == "Sandbox" ? .sandbox : .production, via: .history, raw: "", rejection: nil, facts: facts,
                    marketplace: .googlePlay)
                if case .stored = try await tx.receive(incoming) { new += 1 }
            }
            return new
        }
    }

    /// Acknowledges (and consumes, when the game asked) the delivered purchase `token`
    /// through `tell`, which returns nil when Google took it, else why not. Kept on the
    /// token and audited; told once.
    ///
    /// An operator's "acknowledge now" (`by`, with `reason`) is the same call, audited under
    /// the operator with the reason; a viewer may not, nor anyone without a reason.
    public func acknowledge(
        purchaseToken token: String, by actor: Operator = .system, reason: String? = nil, at now: Millis = .now(),
        tell: @Sendable (PlayAcknowledgement) async -> String?
    ) async throws -> PlayAcknowledgeOutcome {
        // The worker acknowledges by itself; an operator must be one who may act, with a reason.
        if actor != .system { try store.requireOperator(actor, may: .acknowledgePlayPurchase, reason: reason ?? "") }
        let owed = try await store.read { sql -> PlayAcknowledgement?? in
            guard
                let stored = try await sql.row("SELECT \(unsafeRaw: StoredPlayPurchase.Column.list) FROM play_purchases WHERE purchase_token = \(bind: token)")
                    .map(StoredPlayPurchase.init(row:))
            else { return .some(nil) }
            let delivered = try await sql.row(
                """
                SELECT o.order_id FROM transactions t JOIN orders o ON o.order_id = t.order_id
                WHERE t.purchase_token = \(bind: token) AND o.state = 'delivered' LIMIT 1
                """)
            let owned = try await sql.row(
                """
                SELECT s.owner_account FROM transactions t JOIN subscriptions s ON s.original_transaction_id = t.original_transaction_id
                WHERE t.purchase_token = \(bind: token) AND s.owner_account IS NOT NULL LIMIT 1
                """)
            guard delivered != nil || owned != nil else { return .some(nil) }
            let submitted = try await sql.row(
                "SELECT receipt_data FROM receipt_submissions WHERE purchase_token = \(bind: token) ORDER BY id DESC LIMIT 1"
            )?.optionalString("receipt_data").map(PlaySubmission.init(storedText:))
            let consume = stored.facts.kind == .oneTime && !stored.facts.consumed && submitted?.consume == true
            guard !stored.facts.acknowledged || consume else { return .none }
            return PlayAcknowledgement(
                packageName: stored.facts.packageName, productId: stored.facts.productId, purchaseToken: token, kind: stored.facts.kind, consume: consume)
        }
        guard let owed else { return .alreadyDone }
        guard let request = owed else { return .notDelivered }
        if let refusal = await tell(request) { return .failed(refusal) }
        return try await store.write(as: actor, now: now) { tx in
            try await tx.recordAcknowledged(token, consumed: request.consume)
            tx.audit(
                request.consume ? .googleConsumed : .googleAcknowledged, target: .purchaseToken(token), reason: reason,
                .playAcknowledged(consumed: request.consume))
            return .acknowledged(at: tx.now, consumed: request.consume)
        }
    }

    /// Purchases Google refunds by itself unless acknowledged before `within` from now:
    /// paid, not acknowledged, deadline near (or passed). Oldest deadline first.
    public func acknowledgementsAtRisk(within: Millis = .hours(24), at now: Millis = .now(), limit: Int = 100) async throws -> [StoredPlayPurchase] {
        try await store.read { sql in
            try await sql.rows(
                """
                SELECT \(unsafeRaw: StoredPlayPurchase.Column.list) FROM play_purchases WHERE acknowledged = 0 AND acknowledge_by IS NOT NULL AND acknowledge_by <= \(bind: now + within)
                ORDER BY acknowledge_by LIMIT \(literal: limit)
                """
            ).map(StoredPlayPurchase.init(row:))
        }
    }
}

extension WriteTransaction {
    /// A voided purchase as the refund notification the rules apply: the order's
    /// cancellation, a quantity-based one with the share of the purchase voided so far.
    func refundFacts(_ record: PlayVoidedPurchase, among all: [PlayVoidedPurchase]) async throws -> NotificationFacts {
        let stored = try await playPurchase(record.purchaseToken)
        let known = try await storedTransaction(record.orderId)?.transaction
        var transaction =
            known
            ?? AppleTransaction(
                transactionId: record.orderId, originalTransactionId: PlayChain.firstOrder(of: record.orderId),
                productId: stored?.facts.productId ?? "unknown", quantity: stored?.facts.quantity ?? 1, purchaseDate: record.purchaseTime)
        transaction.purchaseToken = record.purchaseToken
        transaction.cancellationDate = record.voidedTime
        transaction.cancellationReason = record.appleCancellationReason
        var subtype: String? = nil
        if let units = record.quantity {
            let voidedSoFar = all.filter { $0.orderId == record.orderId && $0.voidedTime <= record.voidedTime }.compactMap(\.quantity).reduce(0, +)
            let quantity = max(1, stored?.facts.quantity ?? transaction.quantity)
            // Rounded up: the share's units (quantity × share, rounded down) are the units voided.
            transaction.refundedShare = min(100_000, (voidedSoFar * 100_000 + quantity - 1) / quantity)
            subtype = "QUANTITY_BASED_PARTIAL_REFUND_\(units)"
        }
        var facts = NotificationFacts(
            uuid: "play-voided:\(record.orderId):\(record.voidedTime)", type: "REFUND", subtype: subtype, signedDate: record.voidedTime,
            environment: stored?.facts.isTest == true ? "Sandbox" : "Production", transaction: transaction)
        facts.app = stored?.facts.packageName
        facts.purchaseToken = record.purchaseToken
        return facts
    }
}
