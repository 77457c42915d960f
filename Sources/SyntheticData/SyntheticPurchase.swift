import OrderDomain
import OrderStore

/// A purchase a synthetic player paid for, as Apple would know it. The demo hands these
/// to its App Store simulator, so that re-verifying a seeded order asks an Apple that
/// remembers the purchase, as the real one would.
public struct SyntheticPurchase: Sendable, Equatable {
    public var orderId: String
    /// The Apple ID that paid: the account's own, or for a shared subscription the one
    /// its first owner subscribed with.
    public var appleAccount: String
    public var productId: String
    public var type: ProductType
    public var transactionId: String
    public var originalTransactionId: String
    public var webOrderLineItemId: String?
    public var purchasedAt: Millis
    public var expiresAt: Millis?
    /// Apple's refund date; may be one the store never heard of (a missed notification).
    public var cancelledAt: Millis?
    public var environment: AppleEnvironment
    public var autoRenew: Bool
}

/// Signs the receipt a game client would have sent for a purchase (the demo's simulator);
/// the seeded store keeps it in place of a placeholder for orders still waiting for Apple.
public typealias SyntheticReceiptSigner = @Sendable (SyntheticPurchase) throws -> String
