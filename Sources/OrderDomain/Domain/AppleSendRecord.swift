/// One notification in Apple's own record (Get Notification History): what it says, Apple's
/// tries to deliver it, and what serve kept of it, if anything.
public struct AppleSendRecord: Sendable {
    public var facts: NotificationFacts
    /// Why its signature did not check out here (nil when it did).
    public var rejection: NotificationRejection?
    /// Apple's tries, oldest first: when, and `sendAttemptResult`.
    public var attempts: [(at: Millis?, result: String)]
    /// What serve stored under the same `notificationUUID`.
    public var received: NotificationRecord?

    public init(facts: NotificationFacts, rejection: NotificationRejection?, attempts: [(at: Millis?, result: String)], received: NotificationRecord?) {
        self.facts = facts
        self.rejection = rejection
        self.attempts = attempts
        self.received = received
    }
}
