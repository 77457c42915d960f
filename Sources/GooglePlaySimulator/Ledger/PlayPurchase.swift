import Foundation

/// One purchase token as the simulated Google Play remembers it: a one-time product's, or a
/// subscription's (whose renewals keep the token and add an order id each).
public struct PlayPurchase: Sendable, Equatable, Codable {
    /// A one-time purchase's state (ProductPurchase.purchaseState 0/1/2).
    public enum State: String, Sendable, Codable {
        case purchased, cancelled, pending
    }

    /// SubscriptionPurchaseV2.subscriptionState, without its prefix.
    public enum SubscriptionState: String, Sendable, Codable {
        case pending = "SUBSCRIPTION_STATE_PENDING"
        case active = "SUBSCRIPTION_STATE_ACTIVE"
        case paused = "SUBSCRIPTION_STATE_PAUSED"
        case inGracePeriod = "SUBSCRIPTION_STATE_IN_GRACE_PERIOD"
        case onHold = "SUBSCRIPTION_STATE_ON_HOLD"
        case canceled = "SUBSCRIPTION_STATE_CANCELED"
        case expired = "SUBSCRIPTION_STATE_EXPIRED"
        case pendingPurchaseCanceled = "SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED"
    }

    /// One paid period of a subscription: its order id (`GPA.…`, renewals `..0`, `..1`).
    public struct Period: Sendable, Equatable, Codable {
        public var orderId: String
        public var start: Date
        public var end: Date
    }

    public var token: String
    public var packageName: String
    public var productId: String
    public var kind: PlayProduct.Kind
    /// The one-time purchase's order, or the subscription's first; nil while pending.
    public var orderId: String?
    public var purchaseTime: Date
    public var state: State
    public var acknowledged: Bool
    public var consumed: Bool
    public var quantity: Int
    public var refundableQuantity: Int
    public var obfuscatedAccountId: String?
    public var obfuscatedProfileId: String?
    public var regionCode: String
    /// Bought by a license tester: no money moved.
    public var isTest: Bool
    public var priceMicros: Int64
    public var currency: String

    public var subscriptionState: SubscriptionState?
    public var periods: [Period]
    public var autoRenew: Bool
    /// The token this one replaced (a plan change, a re-signup before the old one lapsed).
    public var linkedPurchaseToken: String?
    /// Why and when it was canceled: `user`, `system`, `developer` or `replacement`.
    public var canceledBy: String?
    public var canceledAt: Date?
    public var pausedUntil: Date?
    /// Changes with every change of the subscription (defer needs the current one).
    public var etag: Int
    /// When the developer's server acknowledged it, and consumed it.
    public var acknowledgedAt: Date?
    public var consumedAt: Date?

    /// The latest period's end; nil for a one-time product.
    public var expiryTime: Date? { periods.last?.end }

    /// The order of the latest successful payment.
    public var latestOrderId: String? { periods.last?.orderId ?? orderId }
}

/// A purchase Google voided: refunded (by the user, the developer or Google), charged back,
/// or refunded because it was never acknowledged. What `purchases.voidedpurchases.list`
/// serves and the voided-purchase notification tells.
public struct VoidedRecord: Sendable, Equatable, Codable {
    public var token: String
    public var orderId: String
    public var purchaseTime: Date
    public var voidedTime: Date
    /// 0 user, 1 developer, 2 Google.
    public var source: Int
    /// 0 other, 1 remorse, 2 not received, 3 defective, 4 accidental, 5 fraud, 6 friendly
    /// fraud, 7 chargeback, 8 unacknowledged purchase.
    public var reason: Int
    /// A quantity-based partial refund: how many units; nil for the whole purchase.
    public var quantity: Int?
    public var isSubscription: Bool
}
