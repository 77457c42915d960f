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

    /// What an operator does about an order waiting for this reason (or an alert of such
    /// orders), naming the console's key and the CLI's command; nil where the store goes on
    /// by itself or nothing is left to do.
    public static func nextStep(_ reason: OrderReason) -> String? {
        switch reason {
        case .credentialsRefused(.appStore):
            "check the key id, issuer id and .p8 key in [apple] (`iapdesk config`); the retries then go through"
        case .credentialsRefused(.googlePlay):
            "check the service account key file and that Play Console grants it access to this app; the retries then go through"
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

    /// The order's words, then for one a person must act on (rejected, or waiting for an
    /// operator) its reason code (what `--rejected` takes) and the next step: "last error"
    /// on the order page. An order the schedule retries by itself shows its words alone.
    public static func explained(_ order: Order) -> String? {
        guard let words = order.lastError else { return nil }
        guard let reason = order.reason, reason != .unclassified, order.state == .rejected || order.needsOperator else { return words }
        let next = order.state == .rejected ? nextStep(forRejected: reason) : nextStep(reason)
        return "\(words) [\(reason.code)]" + (next.map { ": \($0)" } ?? "")
    }
}

extension OperatorAlert {
    /// "verifyReceipt rejects our shared secret (21004): 2 orders waiting, none rejected — fix …".
    public var banner: String {
        var head = example ?? ReasonWords.summary(reason)
        if reason == .googleAcknowledgementDue {
            head = ReasonWords.summary(reason) + (deadline.map { " by \($0.iso8601)" } ?? "")
        }
        let count = "\(orders) order\(orders == 1 ? "" : "s") waiting, none rejected"
        return [head + ": " + count, ReasonWords.nextStep(reason)].compactMap { $0 }.joined(separator: " — ")
    }
}
