/// An order as the store holds it: our order id (sent to Apple as `applicationUsername` /
/// `appAccountToken`), who placed it, what it buys, and where it is in its life.
public struct Order: Sendable, Equatable, Codable {
    public var orderId: String
    public var accountId: String
    public var productId: String
    public var quantity: Int
    public var createdAt: Millis
    public var state: OrderState
    public var stateChangedAt: Millis
    /// Optimistic concurrency: every change bumps it; acting on a stale version fails.
    public var version: Int64
    /// Who made the last change (an operator name, or `system`).
    public var updatedBy: String
    /// When the order entered a paid-but-undelivered state; nil otherwise.
    public var stuckSince: Millis?
    public var environment: AppleEnvironment?
    public var transactionId: String?
    public var originalTransactionId: String?
    public var attempts: Int
    /// The first failure of the current run of retryable failures (R4's 72 h window).
    public var firstFailureAt: Millis?
    public var nextRetryAt: Millis?
    public var lastError: String?
    /// R4: the retry schedule ran out; only an operator can move it now.
    public var needsOperator: Bool
    /// R7: this order tried to claim a purchase another order already claimed.
    public var replayFlag: Bool
    /// R7/R11: delivered by hand, then Apple's answer showed the purchase already delivered
    /// to this other order: two deliveries for one purchase, for an operator to settle.
    public var deliveryConflict: String? = nil

    /// Delivered by an operator before Apple confirmed which purchase paid for it: it keeps
    /// being verified (R4) until an answer claims the purchase (R7).
    public var isUnconfirmedDelivery: Bool { state == .delivered && transactionId == nil }
}

extension Order {
    /// The flags an operator must see beside the state, in the words both the console and
    /// the command line print.
    public func badges(storeIsProduction: Bool) -> [String] {
        var badges: [String] = []
        if needsOperator { badges.append("NEEDS OPERATOR") }
        if replayFlag { badges.append("REPLAY") }
        if isUnconfirmedDelivery { badges.append("UNCONFIRMED: Apple has not yet confirmed the purchase") }
        if let other = deliveryConflict { badges.append("TWO DELIVERIES for one purchase (also order \(other))") }
        if storeIsProduction, environment == .sandbox { badges.append("SANDBOX in a production store: App Review or a tester") }
        return badges
    }
}
