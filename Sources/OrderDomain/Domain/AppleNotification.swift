/// An App Store Server Notification V2 as it reached us (the receiver or a history sweep),
/// decoded and checked by the server before the store sees it. The store keeps it raw and
/// applies it later, in `signedDate` order per original transaction.
public struct IncomingNotification: Sendable, Equatable {
    /// The URL it came to: Apple sends production and sandbox to separate URLs.
    public var endpoint: AppleEnvironment
    /// Posted by Apple, recovered by a history sweep, or replayed by an operator.
    public var via: NotificationChannel
    /// The `signedPayload` as received (bounded by the receiver).
    public var raw: String
    /// Nil when the signature, chain, bundle id and environment all check out.
    public var rejection: NotificationRejection?
    /// What the payload says, decoded.
    public var facts: NotificationFacts
    /// The store that sent it: Apple's V2 notification, or Google Play's real-time developer
    /// notification (and the voided purchases its sweep reads), known where it was received.
    public var marketplace: Marketplace

    public init(
        endpoint: AppleEnvironment, via: NotificationChannel, raw: String, rejection: NotificationRejection?, facts: NotificationFacts,
        marketplace: Marketplace = .appStore
    ) {
        self.endpoint = endpoint
        self.via = via
        self.raw = raw
        self.rejection = rejection
        self.facts = facts
        self.marketplace = marketplace
    }
}

/// How a notification reached us.
public enum NotificationChannel: String, Sendable, Codable {
    /// Apple posted it to our URL.
    case receiver
    /// A sweep of Get Notification History recovered it.
    case history
    /// An operator replayed a stored one.
    case replay
}

/// What a notification says. For a rejected one these are only what it claims.
public struct NotificationFacts: Sendable, Equatable, Codable {
    /// `notificationUUID`: Apple's id for the notification; a retry repeats it, so the
    /// store keeps one of each.
    public var uuid: String?
    /// `notificationType`: `DID_RENEW`, `REFUND`, `EXPIRED`, `CONSUMPTION_REQUEST`…
    public var type: String?
    /// `subtype`: `BILLING_RECOVERY`, `AUTO_RENEW_DISABLED`…; nil when the type has none.
    public var subtype: String?
    /// When Apple signed it: notifications about one purchase apply in this order.
    public var signedDate: Millis?
    /// `Production` or `Sandbox`, as the payload says.
    public var environment: String?
    /// The decoded `signedTransactionInfo`, when there is one.
    public var transaction: AppleTransaction?
    /// The decoded `signedRenewalInfo`, for a subscription.
    public var renewal: AppleRenewalInfo?
    /// For a `CONSUMPTION_REQUEST`: the player's reason for the refund request.
    public var consumptionRequestReason: String?
    /// For a `RESCIND_CONSENT` (no transaction): the app transaction, one per Apple Account.
    public var appTransactionId: String?
    /// For a `RENEWAL_EXTENSION`/`SUMMARY`: the extension for all subscribers it ends.
    public var extensionSummary: ExtensionSummary?
    /// The app (bundle id) it is about, as it claims; the store keeps it routed by this.
    public var app: String?
    /// Apple's `status` of the subscription it is about, as Apple signed it (1 active,
    /// 2 expired, 3 billing retry, 4 grace period, 5 revoked); nil for other products.
    public var status: Int?
    /// For an EXTERNAL_PURCHASE_TOKEN: the token Apple reports (payments outside Apple).
    public var externalPurchaseToken: ExternalPurchaseToken?
    /// Google Play: the purchase token a real-time developer notification names. Google's
    /// notifications carry no state: applying one asks Google about the token.
    public var purchaseToken: String?

    /// A token of a purchase made outside the App Store (EU alternative payments, link-outs),
    /// as an EXTERNAL_PURCHASE_TOKEN notification reports it.
    public struct ExternalPurchaseToken: Sendable, Equatable, Codable {
        public var externalPurchaseId: String?
        public var tokenCreationDate: Millis?
        public var appAppleId: Int64?
        public var bundleId: String?
        /// `ACQUISITION` or `SERVICES` (External Purchase Server API 1.2).
        public var tokenType: String?
        public var tokenExpirationDate: Millis?

        public init(
            externalPurchaseId: String?, tokenCreationDate: Millis?, appAppleId: Int64?, bundleId: String?, tokenType: String?,
            tokenExpirationDate: Millis?
        ) {
            self.externalPurchaseId = externalPurchaseId
            self.tokenCreationDate = tokenCreationDate
            self.appAppleId = appAppleId
            self.bundleId = bundleId
            self.tokenType = tokenType
            self.tokenExpirationDate = tokenExpirationDate
        }
    }

    /// Apple's `summary` of an extension for all active subscribers of a product.
    public struct ExtensionSummary: Sendable, Equatable, Codable {
        public var requestIdentifier: String?
        public var productId: String?
        public var succeededCount: Int64?
        public var failedCount: Int64?

        public init(requestIdentifier: String?, productId: String?, succeededCount: Int64?, failedCount: Int64?) {
            self.requestIdentifier = requestIdentifier
            self.productId = productId
            self.succeededCount = succeededCount
            self.failedCount = failedCount
        }
    }

    public init(
        uuid: String? = nil, type: String? = nil, subtype: String? = nil, signedDate: Millis? = nil, environment: String? = nil,
        transaction: AppleTransaction? = nil, renewal: AppleRenewalInfo? = nil, consumptionRequestReason: String? = nil
    ) {
        self.uuid = uuid
        self.type = type
        self.subtype = subtype
        self.signedDate = signedDate
        self.environment = environment
        self.transaction = transaction
        self.renewal = renewal
        self.consumptionRequestReason = consumptionRequestReason
    }

    /// The purchase it is about (a subscription's original transaction id), when it names one.
    public var originalTransactionId: String? { transaction?.originalTransactionId ?? renewal?.originalTransactionId }

    /// `TYPE` or `TYPE/SUBTYPE`, as the console shows it.
    public var kind: String { [type ?? "?", subtype].compactMap { $0 }.joined(separator: "/") }

    /// What orders notifications: one original transaction's are applied one after another,
    /// oldest `signedDate` first. A notification about no transaction stands alone.
    public var applyKey: String {
        if let otid = originalTransactionId { return otid }
        if let token = purchaseToken { return "play:\(token)" }
        return "uuid:\(uuid ?? "none")"
    }
}

/// What came of a stored notification.
public enum NotificationOutcome: String, Sendable, CaseIterable, Codable {
    /// Stored; the worker has not applied it yet.
    case pending
    /// Applied through the rules.
    case applied
    /// A newer notification about the same purchase was applied first: kept, not applied.
    case superseded
    /// About a transaction no order claims: kept on the transaction for an operator.
    case orphan
    /// Recorded with nothing to change (TEST, REFUND_DECLINED, a type with no effect).
    case recorded
    /// Failed its signature, chain, bundle id or environment check: changes nothing.
    case rejected
}

/// A stored notification, as `:notifications` and `iapdesk notifications` show it.
public struct NotificationRecord: Sendable, Equatable {
    public var id: Int64
    /// The URL it came to (production or sandbox).
    public var endpoint: AppleEnvironment
    public var via: NotificationChannel
    public var receivedAt: Millis
    /// Why it was rejected; nil when it checked out.
    public var rejection: NotificationRejection?
    public var facts: NotificationFacts
    public var outcome: NotificationOutcome
    /// What applying it did, or why it was not applied.
    public var detail: NotificationDetail?
    /// When the worker applied it; nil while pending.
    public var appliedAt: Millis?
    /// For a CONSUMPTION_REQUEST: when Apple stops waiting for our consumption information.
    public var deadline: Millis?
    /// The `signedPayload` as received, for an operator to inspect or replay.
    public var raw: String
    /// Apple's or Google Play's.
    public var marketplace: Marketplace

    /// Every field, for a screen or a report built from values (a test, a preview).
    public init(
        id: Int64, endpoint: AppleEnvironment, via: NotificationChannel, receivedAt: Millis, rejection: NotificationRejection? = nil, facts: NotificationFacts,
        outcome: NotificationOutcome, detail: NotificationDetail? = nil, appliedAt: Millis? = nil, deadline: Millis? = nil, raw: String,
        marketplace: Marketplace = .appStore
    ) {
        self.id = id
        self.endpoint = endpoint
        self.via = via
        self.receivedAt = receivedAt
        self.rejection = rejection
        self.facts = facts
        self.outcome = outcome
        self.detail = detail
        self.appliedAt = appliedAt
        self.deadline = deadline
        self.raw = raw
        self.marketplace = marketplace
    }
}
