/// What a studio tells Apple about a purchase whose customer asked for a refund (Send
/// Consumption Information v2, `ConsumptionRequest` in Apple's terms), in Apple's field
/// names. Apple decides the refund; without an answer it decides alone.
public struct ConsumptionAnswer: Sendable, Codable, Equatable {
    public enum DeliveryStatus: String, Sendable, Codable, CaseIterable {
        case delivered = "DELIVERED", qualityIssue = "UNDELIVERED_QUALITY_ISSUE", wrongItem = "UNDELIVERED_WRONG_ITEM"
        case serverOutage = "UNDELIVERED_SERVER_OUTAGE", other = "UNDELIVERED_OTHER"
    }
    public enum RefundPreference: String, Sendable, Codable, CaseIterable {
        case decline = "DECLINE", grantFull = "GRANT_FULL", grantProrated = "GRANT_PRORATED"
    }

    /// Apple requires it: the customer agreed to share their consumption data.
    public var customerConsented: Bool
    /// How much was used, in thousandths of a percent (0…100000).
    public var consumptionPercentage: Int?
    public var deliveryStatus: DeliveryStatus
    public var refundPreference: RefundPreference?
    public var sampleContentProvided: Bool

    public init(
        customerConsented: Bool, consumptionPercentage: Int?, deliveryStatus: DeliveryStatus, refundPreference: RefundPreference?,
        sampleContentProvided: Bool
    ) {
        self.customerConsented = customerConsented
        self.consumptionPercentage = consumptionPercentage
        self.deliveryStatus = deliveryStatus
        self.refundPreference = refundPreference
        self.sampleContentProvided = sampleContentProvided
    }
}
