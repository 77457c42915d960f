import OrderDomain

/// What a reason code means to an operator and what to do next, for the console, the CLI
/// and the banners alike. The store decides by code; the words and the keys and commands
/// to reach for live here only.
public enum ReasonWords {
    /// The reason in a few words, for a banner or a column when no order's own words are at hand.
    public static func summary(_ reason: OrderReason) -> String {
        switch reason {
        case .storeUnreachable(let store): "no answer from \(store.company)"
        case .storeServerError(let store, let http): "\(store.company) HTTP \(http)"
        case .storeRateLimited(let store): "\(store.company)'s rate limit"
        case .storeAnswerUnreadable(let store): "unreadable answer from \(store.company)"
        case .storeAnswerUnexpected(let store, let http): "unexpected answer from \(store.company) (HTTP \(http))"
        case .appleStatus(let status): "\(status) \(StatusCodeRule.meaning(of: status))"
        case .environmentUnsettled(let status): "\(status): the resend to the other environment did not settle"
        case .credentialsRefused(let store): "\(store.company) refuses iapdesk's credentials"
        case .storeNotConfigured(let store): "\(store == .googlePlay ? "Google Play" : "the App Store") is not configured"
        case .sharedSecretRejected: "verifyReceipt rejects our shared secret (21004)"
        case .sharedSecretMissing: "no shared secret was sent (21003)"
        case .requestUnreadable: "verifyReceipt could not read our request (21000)"
        case .appleNotRetryable(let status): "\(status) \(StatusCodeRule.meaning(of: status)), Apple says not retryable"
        case .undocumentedStatus(let status): "Apple status \(status), which Apple never documented"
        case .serverAPIRefused(let status): "Server API \(status) \(StatusCodeRule.meaning(of: status))"
        case .validWithoutContent: "Apple said valid but sent no receipt content"
        case .noTransactionForOrder: "the store's answer holds no transaction for the order"
        case .checkFailed(let check): "check failed: \(check.rawValue)"
        case .replay: "replay: the purchase paid for another order"
        case .doubleDelivery: "two deliveries for one purchase"
        case .ownershipDisputed: "the renewal belongs to another account (R8)"
        case .disputeSettled: "dispute settled for the owner"
        case .googleUnknownPurchase(let http): "Google knows no such purchase (HTTP \(http))"
        case .googlePending: "pending at Google: not paid yet"
        case .googleCancelledBeforePayment: "cancelled at Google before it was paid"
        case .googleAcknowledgementDue: "Google Play refunds these purchases unless acknowledged (three-day rule)"
        case .refunded(let store): "refunded by \(store.company)"
        case .familySharingRevoked: "revoked by Apple (Family Sharing)"
        case .revokedByOperator: "delivery revoked by an operator"
        case .unclassified: "needs an operator"
        }
    }

    /// A reason with its particulars, as one sentence: "replay: tid:500 already claimed by
    /// order o1 of account a1". Words kept before particulars were typed are said as kept.
    public static func sentence(_ why: Why) -> String {
        let said = why.particulars
        if let words = said.words { return words }
        if let handDelivery = said.handDelivery { return handDeliverySentence(why, order: handDelivery) }
        let message = said.message.map { " \($0)" } ?? ""
        switch why.reason {
        case .storeUnreachable(let store): return "no answer from \(store.company)" + (said.message.map { ": \($0)" } ?? "")
        case .storeServerError(let store, let http): return "\(store.company) HTTP \(http)\(message)"
        case .storeRateLimited(.appStore): return "Apple rate limit (HTTP 429)"
        case .storeRateLimited(.googlePlay): return "Google's rate limit (HTTP 429\(message))"
        case .credentialsRefused(.appStore): return "Apple refused iapdesk's credentials (HTTP \(said.http.map(String.init) ?? "?"))"
        case .credentialsRefused(.googlePlay): return "Google refused iapdesk's service account (HTTP \(said.http.map(String.init) ?? "?")\(message))"
        case .storeAnswerUnreadable(.appStore): return "unreadable answer from Apple (HTTP \(said.http.map(String.init) ?? "?"))"
        case .storeAnswerUnreadable(.googlePlay): return "unreadable answer from Google"
        case .storeAnswerUnexpected(let store, let http): return "unexpected answer from \(store.company) (HTTP \(http)\(message))"
        case .appleStatus(let status), .undocumentedStatus(let status): return described(status)
        case .appleNotRetryable(let status): return "\(described(status)), Apple says not retryable"
        case .environmentUnsettled(let status): return "\(described(status)) (environment switch did not settle)"
        case .sharedSecretMissing: return "\(described(21003)) and no shared secret was sent"
        case .serverAPIRefused(let status): return "Server API \(described(status))"
        case .noTransactionForOrder: return "Apple's answer is valid but holds no transaction for this order"
        case .checkFailed(let name): return "check failed: " + checkWords(name, said.check)
        case .replay:
            guard let holder = said.holder else { return summary(why.reason) }
            return "replay: \(holder.key) already claimed by order \(holder.order) of account \(holder.account)"
        case .ownershipDisputed: return said.ownership.map(OwnershipWords.explanation) ?? summary(why.reason)
        case .disputeSettled: return "dispute settled for the owner" + (said.note.map { ": \($0)" } ?? "")
        case .googleUnknownPurchase(let http): return "Google knows no such purchase for this app and product (HTTP \(http)\(message))"
        case .googlePending: return "pending at Google: the player has not paid yet; Google tells when they do"
        case .googleCancelledBeforePayment: return "Google says the purchase was cancelled before it was paid: never granted"
        case .refunded(let store):
            if let at = said.cancelledAt { return "\(store.company) reports cancellation \(at.iso8601)" }
            return said.transactionId.map { "\(store.company) refunded transaction \($0)" } ?? summary(why.reason)
        case .familySharingRevoked: return said.transactionId.map { "Apple revoked transaction \($0) (Family Sharing)" } ?? summary(why.reason)
        case .revokedByOperator: return "delivery revoked by \(said.actor ?? "an operator")" + (said.note.map { ": \($0)" } ?? "")
        case .sharedSecretRejected, .storeNotConfigured, .requestUnreadable, .validWithoutContent, .doubleDelivery, .googleAcknowledgementDue, .unclassified:
            return summary(why.reason)
        }
    }

    /// A hand delivery Apple's answer was asked to confirm (R11), and why it does not.
    private static func handDeliverySentence(_ why: Why, order: String) -> String {
        let said = why.particulars
        switch why.reason {
        case .noTransactionForOrder: return "Apple's answer holds no transaction for this hand delivery yet"
        case .checkFailed(let name): return "Apple's answer does not confirm this hand delivery: " + checkWords(name, said.check)
        case .ownershipDisputed:
            let owner = if case .ownerKeeps(let owner) = said.ownership { owner } else { "another account" }
            return "delivered by hand, but R8 gives this renewal to \(owner)"
        case .doubleDelivery:
            guard let holder = said.holder else { return summary(why.reason) }
            return "two deliveries for one purchase: \(holder.key) paid for order \(holder.order) (account \(holder.account)) "
                + "and was delivered by hand to order \(order)"
        default:
            var plain = why
            plain.particulars.handDelivery = nil
            return "Apple does not confirm this hand delivery: " + sentence(plain)
        }
    }

    /// "21010 user account not found or deleted".
    private static func described(_ status: Int) -> String { "\(status) \(StatusCodeRule.meaning(of: status))" }

    /// "product id: no_ads ≠ coins_60".
    private static func checkWords(_ name: ReceiptCheck.Name, _ check: ReceiptCheck?) -> String {
        "\(name.rawValue): " + (check.map(CheckWords.saw) ?? "failed")
    }

    /// What an operator does about an order waiting for this reason (or an alert of such
    /// orders), naming the console's key and the CLI's command; nil where the store goes on
    /// by itself or nothing is left to do.
    public static func nextStep(_ reason: OrderReason) -> String? {
        switch reason {
        case .credentialsRefused(.appStore):
            "check the key id, issuer id and .p8 key in [apple] (`iapdesk config`); the retries then go through"
        case .credentialsRefused(.googlePlay):
            "check the service account key file and that Play Console grants it access to this app; the retries then go through"
        case .storeNotConfigured(.appStore): "configure [apple] in iapdesk.toml (`iapdesk config`); the retries then go through"
        case .storeNotConfigured(.googlePlay): "configure [google_play] in iapdesk.toml (`iapdesk config`); the retries then go through"
        case .sharedSecretRejected: "fix `shared_secret_file` in [apple]; the retries then go through"
        case .sharedSecretMissing: "set `shared_secret_file` in [apple]; the retries then go through"
        case .requestUnreadable: "check iapdesk's verifyReceipt URL (`iapdesk config`)"
        case .appleNotRetryable, .undocumentedStatus, .serverAPIRefused:
            "re-verify once Apple answers otherwise (r in the console, `iapdesk order reverify`)"
        case .noTransactionForOrder:
            "ask the game for the transaction id, or attach the orphan (A on :orphans, `iapdesk orphan attach`)"
        case .ownershipDisputed: "settle it (d in the console, `iapdesk order resolve`), which also closes its review"
        case .doubleDelivery: "settle the two deliveries with the player; the purchase paid for the other order"
        case .googleAcknowledgementDue: "deliver them or see why they wait (:stuck, `iapdesk stuck list --store google`)"
        case .storeUnreachable, .storeServerError, .storeRateLimited, .storeAnswerUnreadable, .storeAnswerUnexpected, .appleStatus,
            .environmentUnsettled:
            "the retries ran out: re-verify it once the store answers (r in the console, `iapdesk order reverify`)"
        case .unclassified: "read the order's last error"
        default: nil
        }
    }

    /// What an admin does about orders rejected for `reason` once its cause is fixed.
    public static func nextStep(forRejected reason: OrderReason) -> String {
        "an admin re-verifies once the cause is fixed: r in the console, or every such order with `iapdesk stuck reverify --rejected \(reason.code)`"
    }

    /// Why a verification attempt did not succeed; an expired subscription's receipt (21006,
    /// valid) says so too.
    public static func attempt(_ attempt: VerificationAttempt) -> String? {
        attempt.why.map(sentence) ?? (attempt.outcome == .validExpired ? StatusCodeRule.meaning(of: 21006) : nil)
    }

    /// An audit entry's why: the rule's decision said, or the operator's own words.
    public static func audited(_ entry: AuditEntry) -> String? { entry.why.map(sentence) ?? entry.reason }

    /// R8's decision a verdict kept, in words.
    public static func ownership(_ verdict: StoredVerdict) -> String? {
        verdict.ownership.map(OwnershipWords.explanation) ?? verdict.ownershipWords
    }

    /// The order's reason with its particulars in a sentence: the order's "last error".
    public static func lastError(_ order: Order) -> String? { order.why.map(sentence) }

    /// The order's words, then for one a person must act on (rejected, or waiting for an
    /// operator) its reason code (what `--rejected` takes) and the next step: "last error"
    /// on the order page. An order the schedule retries by itself shows its words alone.
    public static func explained(_ order: Order) -> String? {
        guard let words = lastError(order) else { return nil }
        guard let reason = order.reason, reason != .unclassified, order.state == .rejected || order.needsOperator else { return words }
        let next = order.state == .rejected ? nextStep(forRejected: reason) : nextStep(reason)
        return "\(words) [\(reason.code)]" + (next.map { ": \($0)" } ?? "")
    }
}

extension OperatorAlert {
    /// "verifyReceipt rejects our shared secret (21004): 2 orders waiting, none rejected — fix …".
    public var banner: String {
        var head = example.map { ReasonWords.sentence(Why(reason, $0)) } ?? ReasonWords.summary(reason)
        if reason == .googleAcknowledgementDue {
            head = ReasonWords.summary(reason) + (deadline.map { " by \($0.iso8601)" } ?? "")
        }
        let count = "\(orders) order\(orders == 1 ? "" : "s") waiting, none rejected"
        return [head + ": " + count, ReasonWords.nextStep(reason)].compactMap { $0 }.joined(separator: " — ")
    }
}
