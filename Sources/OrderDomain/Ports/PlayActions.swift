/// The actions Google Play lets a studio take, as the store's operations call them. The
/// Play Developer API client does them (against Google, or the simulator); the console holds
/// one without knowing the client.
public protocol PlayActions: Sendable {
    /// Acknowledge a purchase (consume it, when asked): nil when Google took it, else its
    /// refusal in words, as Google said it.
    func acknowledgeRefusal(_ request: PlayAcknowledgement) async -> String?
    /// `orders.refund` of Google's order `orderId` in `package`; with `revoke`, access ends
    /// now (Google voids the purchase and says so). Nil when Google took it, else its refusal.
    func refundRefusal(package: String, orderId: String, revoke: Bool) async -> String?
    /// `subscriptionsv2.revoke` of `purchaseToken`: access ends now, a full (or prorated)
    /// refund. Nil when Google took it, else its refusal.
    func revokeRefusal(package: String, purchaseToken: String, prorated: Bool) async -> String?
    /// `subscriptionsv2.defer` of `purchaseToken` by `seconds`, with the etag Google gave last.
    func deferAnswer(package: String, purchaseToken: String, seconds: Int64) async -> PlayDeferAnswer
    /// The Orders API's `orders.get` for `orderId`, asked of each of the studio's packages.
    func googleOrder(_ orderId: String) async -> GoogleOrderAnswer
}

/// What Google answered a deferral: the subscription's new end, or its refusal in words.
public enum PlayDeferAnswer: Sendable, Equatable {
    case deferred(newExpiry: Millis)
    case refused(String)
}

/// What the worker asks Google to do for a delivered purchase.
public struct PlayAcknowledgement: Sendable, Equatable {
    public var packageName: String
    public var productId: String
    public var purchaseToken: String
    public var kind: PlayPurchaseFacts.Kind
    /// Consume rather than only acknowledge (a consumable the game wants bought again);
    /// consuming acknowledges too.
    public var consume: Bool

    public init(packageName: String, productId: String, purchaseToken: String, kind: PlayPurchaseFacts.Kind, consume: Bool) {
        self.packageName = packageName
        self.productId = productId
        self.purchaseToken = purchaseToken
        self.kind = kind
        self.consume = consume
    }
}
