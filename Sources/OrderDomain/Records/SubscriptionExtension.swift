/// One extension of a subscription's renewal date an operator asked of Apple.
public struct SubscriptionExtension: Sendable, Equatable {
    public var id: Int64
    public var originalTransactionId: String
    public var days: Int
    /// Apple's `extendReasonCode`: 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage.
    public var reasonCode: Int
    /// Apple's `requestIdentifier`: asking again with it cannot extend twice.
    public var requestId: String
    public var operatorName: String
    public var reason: String
    public var claimedAt: Millis
    public var outcome: AppleActionOutcome
    public var answeredAt: Millis?
    /// The subscription's end Apple answered with.
    public var newExpiry: Millis?
    public var appleError: String?

    /// Every field, for the store's row decoding.
    package init(
        id: Int64, originalTransactionId: String, days: Int, reasonCode: Int, requestId: String, operatorName: String, reason: String, claimedAt: Millis,
        outcome: AppleActionOutcome, answeredAt: Millis? = nil, newExpiry: Millis? = nil, appleError: String? = nil
    ) {
        self.id = id
        self.originalTransactionId = originalTransactionId
        self.days = days
        self.reasonCode = reasonCode
        self.requestId = requestId
        self.operatorName = operatorName
        self.reason = reason
        self.claimedAt = claimedAt
        self.outcome = outcome
        self.answeredAt = answeredAt
        self.newExpiry = newExpiry
        self.appleError = appleError
    }
}
