/// Why an action Apple lets a studio take (answering a refund request, extending a
/// subscription) was refused before or while Apple was asked. Each says what happened;
/// nothing was sent twice.
public enum AppleActionError: Error, Equatable, CustomStringConvertible {
    /// A refund request's answer was sent already (one per request).
    case alreadyAnswered(notificationId: Int64, by: String, at: Millis)
    /// Another operator's answer to this refund request is on its way to Apple.
    case answeringElsewhere(notificationId: Int64, by: String)
    /// Apple's 12 hours are over: Apple decided without an answer.
    case refundDeadlinePassed(notificationId: Int64, deadline: Millis)
    /// Apple takes consumption information only with the customer's consent.
    case consentRequired
    /// The notification is not a verified CONSUMPTION_REQUEST.
    case notARefundRequest(id: Int64)
    /// Apple's rules refuse this extension; said before Apple is asked.
    case extensionRefused(originalTransactionId: String, why: String)

    public var description: String {
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
        case .extensionRefused(let otid, let why):
            "subscription \(otid) cannot be extended: \(why) (nothing was sent to Apple)"
        }
    }
}
