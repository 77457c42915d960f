/// Why an action Apple lets a studio take (answering a refund request, extending a
/// subscription) was refused before or while Apple was asked. Each says what happened;
/// nothing was sent twice. Presentation says each in words.
public enum AppleActionError: Error, Equatable {
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
    case extensionRefused(originalTransactionId: String, ExtensionRefusal)
}
