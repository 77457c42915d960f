/// An extension of every active subscriber of a product an admin asked of Apple (Extend
/// Subscription Renewal Dates for All Active Subscribers), and how far Apple got.
public struct MassExtension: Sendable, Equatable {
    /// Apple's `requestIdentifier`: the status and the SUMMARY notification name it.
    public var requestId: String
    public var productId: String
    public var days: Int
    public var reasonCode: Int
    public var environment: AppleEnvironment
    public var operatorName: String
    public var reason: String
    public var claimedAt: Millis
    /// Whether Apple took the request (`sent`) or refused it (`failed`).
    public var outcome: AppleActionOutcome
    public var answeredAt: Millis?
    public var appleError: String?
    /// When Apple finished, with its counts (from the SUMMARY notification or a status poll).
    public var completeAt: Millis?
    public var succeeded: Int64?
    public var failed: Int64?

    /// Apple took it and has not said it finished.
    public var inProgress: Bool { outcome == .sent && completeAt == nil }

    /// Every field, for the store's row decoding.
    package init(
        requestId: String, productId: String, days: Int, reasonCode: Int, environment: AppleEnvironment, operatorName: String, reason: String,
        claimedAt: Millis, outcome: AppleActionOutcome, answeredAt: Millis? = nil, appleError: String? = nil, completeAt: Millis? = nil,
        succeeded: Int64? = nil, failed: Int64? = nil
    ) {
        self.requestId = requestId
        self.productId = productId
        self.days = days
        self.reasonCode = reasonCode
        self.environment = environment
        self.operatorName = operatorName
        self.reason = reason
        self.claimedAt = claimedAt
        self.outcome = outcome
        self.answeredAt = answeredAt
        self.appleError = appleError
        self.completeAt = completeAt
        self.succeeded = succeeded
        self.failed = failed
    }
}
