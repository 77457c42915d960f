/// What Google Play says of one purchase token beyond what the rules key on: its states, the
/// acknowledgement Google's three-day rule asks for, consumption, the obfuscated ids the
/// game set, the token it replaced, a license tester's purchase. The Google Play adapter
/// builds it from Google's answer; the store keeps it per token.
public struct PlayPurchaseFacts: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        case oneTime = "one_time"
        case subscription
    }

    /// A purchase's state as Google gives it; a subscription's is `subscriptionState`.
    public enum State: String, Sendable, Codable {
        case purchased, pending, cancelled
    }

    public var purchaseToken: String
    public var packageName: String
    public var productId: String
    public var kind: Kind
    /// The one-time purchase's order, or the subscription's latest paid one.
    public var orderId: String?
    public var state: State
    public var acknowledged: Bool
    public var consumed: Bool
    public var quantity: Int
    public var refundableQuantity: Int?
    public var purchaseTime: Millis?
    public var expiryTime: Millis?
    /// `SUBSCRIPTION_STATE_ACTIVE` and the like, as Google names it.
    public var subscriptionState: String?
    public var autoRenew: Bool?
    /// The token this one replaced (a plan change): a subscription is the chain of them.
    public var linkedPurchaseToken: String?
    public var obfuscatedAccountId: String?
    public var obfuscatedProfileId: String?
    public var regionCode: String?
    /// A license tester's purchase: no money moved, flagged like Apple's sandbox.
    public var isTest: Bool

    public init(
        purchaseToken: String, packageName: String, productId: String, kind: Kind, orderId: String?, state: State, acknowledged: Bool,
        consumed: Bool = false, quantity: Int = 1, refundableQuantity: Int? = nil, purchaseTime: Millis? = nil, expiryTime: Millis? = nil,
        subscriptionState: String? = nil, autoRenew: Bool? = nil, linkedPurchaseToken: String? = nil, obfuscatedAccountId: String? = nil,
        obfuscatedProfileId: String? = nil, regionCode: String? = nil, isTest: Bool = false
    ) {
        self.purchaseToken = purchaseToken
        self.packageName = packageName
        self.productId = productId
        self.kind = kind
        self.orderId = orderId
        self.state = state
        self.acknowledged = acknowledged
        self.consumed = consumed
        self.quantity = quantity
        self.refundableQuantity = refundableQuantity
        self.purchaseTime = purchaseTime
        self.expiryTime = expiryTime
        self.subscriptionState = subscriptionState
        self.autoRenew = autoRenew
        self.linkedPurchaseToken = linkedPurchaseToken
        self.obfuscatedAccountId = obfuscatedAccountId
        self.obfuscatedProfileId = obfuscatedProfileId
        self.regionCode = regionCode
        self.isTest = isTest
    }

    /// Google refunds and revokes a purchase not acknowledged within three days of it.
    public static let acknowledgeWithin: Millis = .days(3)

    /// When Google refunds it unless acknowledged; nil once acknowledged, or before it is paid.
    public var acknowledgeBy: Millis? {
        guard !acknowledged, state == .purchased, let purchaseTime else { return nil }
        return purchaseTime + Self.acknowledgeWithin
    }
}
