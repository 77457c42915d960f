/// A paid, undelivered order past the threshold, as the stuck queue lists it.
public struct StuckOrder: Sendable {
    public var order: Order
    /// How long it has been paid and undelivered.
    public var age: Millis
    public var attempts: Int { order.attempts }
    public var nextRetryAt: Millis? { order.nextRetryAt }
    /// A Google Play order's deadline: Google refunds the purchase unless it is acknowledged
    /// by then (nil for Apple's orders, and while Google has not said when it was paid).
    public var acknowledgeBy: Millis? = nil

    package init(order: Order, age: Millis, acknowledgeBy: Millis? = nil) {
        self.order = order
        self.age = age
        self.acknowledgeBy = acknowledgeBy
    }
}
