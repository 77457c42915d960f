/// Paid orders waiting for a person, grouped by the code of why: a wrong shared secret, a
/// key Apple refuses, an exhausted retry schedule, two deliveries for one purchase. The
/// console shows the largest group as a banner on every screen until it is fixed.
public struct OperatorAlert: Sendable, Equatable {
    public var reason: OrderReason
    public var orders: Int
    /// The oldest of these orders' last state change.
    public var since: Millis
    /// One order's particulars for the reason, to say beside the code.
    public var example: ReasonParticulars?
    /// Google Play's refund deadline of the first purchase at risk (``OrderReason/googleAcknowledgementDue``).
    public var deadline: Millis?

    /// Every field, for a screen or a report built from values (a test, a preview).
    public init(reason: OrderReason, orders: Int, since: Millis, example: ReasonParticulars? = nil, deadline: Millis? = nil) {
        self.reason = reason
        self.orders = orders
        self.since = since
        self.example = example
        self.deadline = deadline
    }
}
