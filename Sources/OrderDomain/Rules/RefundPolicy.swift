/// How a studio lets iapdesk answer Apple's refund requests on its own, per
/// product type: leave every request to support, or answer from the game's evidence at
/// once. Either way a request support has not answered is answered from the evidence
/// `answerBefore` ahead of Apple's deadline, rather than letting Apple decide alone.
///
/// The policy speaks only for a delivered purchase whose game reported its use with the
/// player's consent (Apple takes nothing without it); anything else stays with support.
public struct RefundPolicy: Sendable, Equatable {
    public enum Mode: String, Sendable, CaseIterable {
        /// Support answers; the policy only steps in `answerBefore` the deadline.
        case `operator`
        /// Answered from the evidence as soon as it is there.
        case answer
    }

    public var modes: [ProductType: Mode]
    /// Answer from the evidence this long before Apple's deadline when no one has; nil: never.
    public var answerBefore: Millis?
    /// What the studio asks Apple to do (`refundPreference`); nil sends none.
    public var preference: ConsumptionAnswer.RefundPreference?

    public init(modes: [ProductType: Mode] = [:], answerBefore: Millis? = nil, preference: ConsumptionAnswer.RefundPreference? = nil) {
        self.modes = modes
        self.answerBefore = answerBefore
        self.preference = preference
    }

    /// The name answers sent by the policy carry, in the store and the audit log.
    public static let actor = Operator(name: "refund-policy", role: .support)

    /// Why a request is left to support.
    public enum Leave: Sendable, Equatable {
        case notOpen
        /// Apple refused the last answer: support corrects it.
        case answerRefused
        /// Not delivered through iapdesk.
        case notDelivered
        /// The game reported no use with the player's consent.
        case noConsentedReport
        /// Support answers, until `answerBefore` Apple's deadline (nil: always).
        case supportAnswers(answerBefore: Millis?)
    }

    public enum Decision: Sendable, Equatable {
        /// Left to support, and why.
        case leave(Leave)
        /// Sent now: the answer, and why (the audit entry's reason).
        case send(ConsumptionAnswer, why: String)
    }

    /// The one decision: what the policy does with `request` at `now`.
    public func decide(_ request: RefundRequest, productType: ProductType?, now: Millis) -> Decision {
        guard request.isOpen(at: now) else { return .leave(.notOpen) }
        guard request.answers.last?.outcome != .failed else { return .leave(.answerRefused) }
        guard request.deliveredAt != nil else { return .leave(.notDelivered) }
        guard let report = request.consumption, report.customerConsented else { return .leave(.noConsentedReport) }
        let mode = productType.flatMap { modes[$0] } ?? .operator
        let due = request.deadline.map { $0 - now }
        let late = answerBefore.map { before in (due ?? .max) <= before } ?? false
        guard mode == .answer || late else { return .leave(.supportAnswers(answerBefore: answerBefore)) }
        let answer = ConsumptionAnswer(
            customerConsented: true, consumptionPercentage: report.consumptionPercentage, deliveryStatus: .delivered, refundPreference: preference,
            sampleContentProvided: false)
        let why =
            mode == .answer
            ? "policy: \(productType?.rawValue ?? "product") requests are answered from the game's report"
            : "policy: no one answered \(answerBefore.map { "\($0 / 3_600_000) h" } ?? "") before Apple's deadline"
        return .send(answer, why: why)
    }
}
