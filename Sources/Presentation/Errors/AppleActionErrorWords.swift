import OrderDomain

/// What an action Apple lets a studio take was refused for, in words.
extension AppleActionError {
    public var words: String {
        switch self {
        case .alreadyAnswered(let id, let by, let at):
            "refund request \(id) was answered by \(by) at \(at.iso8601); Apple takes one answer"
        case .answeringElsewhere(let id, let by):
            "\(by)'s answer to refund request \(id) is being sent to Apple right now"
        case .refundDeadlinePassed(let id, let deadline):
            "refund request \(id) was due by \(deadline.iso8601): Apple decided without an answer"
        case .consentRequired:
            "Apple takes consumption information only when the customer consented to share it: nothing was sent"
        case .notARefundRequest(let id):
            "notification \(id) is not a verified refund request (CONSUMPTION_REQUEST)"
        case .extensionRefused(let otid, let refusal):
            "subscription \(otid) cannot be extended: \(refusal.words) (nothing was sent to Apple)"
        }
    }
}

extension ExtensionRefusal {
    var words: String {
        switch self {
        case .days(let days): "Apple extends by 1 to \(ExtensionRule.maxDays) days, not \(days)"
        case .notActive(let status): "it is \(status.rawValue); Apple extends only an active subscription"
        case .periodEnded(let end): "its period ended \(end?.iso8601 ?? "")"
        case .yearlyLimit(let sent): "it was extended \(sent) times in the last 365 days; Apple allows \(ExtensionRule.maxPerYear)"
        case .anotherBeingSent: "another extension of it is being sent to Apple right now"
        }
    }
}

extension ExtensionRule {
    /// Apple's name for an `extendReasonCode`.
    public static func reasonCodeWords(of code: Int) -> String {
        switch code {
        case 0: "undeclared"
        case 1: "customer satisfaction"
        case 2: "other"
        case 3: "service issue or outage"
        default: "code \(code)"
        }
    }
}
