/// One voided Google Play purchase, as the Voided Purchases API lists it: a refund, a
/// chargeback or Google's own refund of what was never acknowledged, of a whole order or
/// (`voidedQuantity`) of some units of a multi-quantity one.
public struct PlayVoidedPurchase: Sendable, Equatable, Codable {
    public var purchaseToken: String
    /// The order voided (`GPA.…`; a subscription's renewal `..N` is voided on its own).
    public var orderId: String
    public var purchaseTime: Millis
    public var voidedTime: Millis
    /// 0 the user, 1 the developer, 2 Google.
    public var source: Int
    /// 0 other, 1 remorse, 2 not received, 3 defective, 4 accidental, 5 fraud, 6 friendly
    /// fraud, 7 chargeback, 8 not acknowledged.
    public var reason: Int
    /// Units voided of a quantity-based partial refund; nil when the whole order is.
    public var quantity: Int?

    public init(purchaseToken: String, orderId: String, purchaseTime: Millis, voidedTime: Millis, source: Int, reason: Int, quantity: Int? = nil) {
        self.purchaseToken = purchaseToken
        self.orderId = orderId
        self.purchaseTime = purchaseTime
        self.voidedTime = voidedTime
        self.source = source
        self.reason = reason
        self.quantity = quantity
    }

    /// Google's reason in words, for the refund's audit and the game's event.
    public var reasonText: String {
        let reasons = [
            "other", "remorse", "not received", "defective", "accidental purchase", "fraud", "friendly fraud", "chargeback",
            "not acknowledged within three days",
        ]
        return reasons.indices.contains(reason) ? reasons[reason] : "reason \(reason)"
    }

    /// In Apple's terms (R9 reads them alike): 1 an issue in the app, 0 anything else.
    package var appleCancellationReason: Int { reason == 2 || reason == 3 ? 1 : 0 }
}
