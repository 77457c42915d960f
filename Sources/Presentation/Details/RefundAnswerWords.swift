import OrderDomain

/// The words an operator answers a refund request with, read the same by `iapdesk refunds
/// answer` and the console's dialog: delivery status, consumed share, refund preference.
public enum RefundAnswerWords {
    public static let deliveries: [(word: String, status: ConsumptionAnswer.DeliveryStatus)] = [
        ("delivered", .delivered), ("quality-issue", .qualityIssue), ("wrong-item", .wrongItem), ("server-outage", .serverOutage), ("other", .other),
    ]
    public static let preferences: [(word: String, preference: ConsumptionAnswer.RefundPreference)] = [
        ("decline", .decline), ("grant-full", .grantFull), ("grant-prorated", .grantProrated),
    ]
    /// What "no preference" and "share not known" are typed as where a field cannot be empty.
    public static let none = "none", unknown = "unknown"

    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// The answer the words make. `consumed` is a percentage (0-100, fractions allowed) or
    /// "unknown"; `prefer` one of ``preferences`` or "none". Apple takes a consumed share
    /// only for a delivered purchase.
    public static func answer(consented: Bool, delivery: String, consumed: String?, prefer: String?, sampleContent: Bool) throws(Invalid)
        -> ConsumptionAnswer
    {
        guard let status = deliveries.first(where: { $0.word == delivery.lowercased() })?.status else {
            throw Invalid(description: "delivery: \(delivery) is not one of \(deliveries.map(\.word).joined(separator: ", "))")
        }
        var share: Int?
        if let consumed, consumed.lowercased() != unknown {
            guard let percent = Double(consumed), (0...100).contains(percent) else {
                throw Invalid(description: "consumed: a percentage from 0 to 100 (or \(unknown)), got \(consumed)")
            }
            share = Int((percent * 1000).rounded())
        }
        if let share, share > 0, status != .delivered {
            throw Invalid(description: "consumed: Apple takes a consumed share only for a delivered purchase; say 0 or \(unknown)")
        }
        var preference: ConsumptionAnswer.RefundPreference?
        if let prefer, prefer.lowercased() != none {
            guard let chosen = preferences.first(where: { $0.word == prefer.lowercased() })?.preference else {
                throw Invalid(description: "prefer: \(prefer) is not one of \(preferences.map(\.word).joined(separator: ", ")) or \(none)")
            }
            preference = chosen
        }
        return ConsumptionAnswer(
            customerConsented: consented, consumptionPercentage: share, deliveryStatus: status, refundPreference: preference,
            sampleContentProvided: sampleContent)
    }

    /// Whether the customer consented to share consumption data, as the game reported it
    /// ("yes"/"no"); empty when the game reported nothing, for the operator to say.
    public static func suggestedConsent(_ r: RefundRequest) -> String {
        r.consumption.map { $0.customerConsented ? "yes" : "no" } ?? ""
    }

    /// The delivery word the evidence suggests: delivered when the order was.
    public static func suggestedDelivery(_ r: RefundRequest) -> String { r.deliveredAt == nil ? "other" : "delivered" }

    /// The consumed share the game reported, as typed in the answer ("40"), else "unknown".
    public static func suggestedConsumed(_ r: RefundRequest) -> String {
        guard r.deliveredAt != nil, let report = r.consumption else { return unknown }
        return (Double(report.consumptionPercentage) / 1000).formatted(.number.grouping(.never))
    }
}

extension ConsumptionAnswer {
    /// The answer in a line, for the audit log and the refund request's screen.
    public var summary: String {
        var parts = [deliveryStatus.rawValue.lowercased().replacingOccurrences(of: "_", with: " ")]
        if let consumptionPercentage { parts.append("\(ShareWords.percent(consumptionPercentage)) consumed") }
        if let refundPreference { parts.append("prefers \(refundPreference.rawValue.lowercased().replacingOccurrences(of: "_", with: " "))") }
        if sampleContentProvided { parts.append("sample content provided") }
        return parts.joined(separator: ", ")
    }
}
