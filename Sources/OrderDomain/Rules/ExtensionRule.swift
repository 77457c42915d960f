/// Apple's eligibility rules for Extend a Subscription Renewal Date, checked before Apple is
/// asked (apple-and-peers-2026: at most 90 days, at most two extensions in 365 days, an
/// active subscription). Apple checks again, with what iapdesk cannot see (a free offer).
public enum ExtensionRule {
    public static let maxDays = 90
    public static let maxPerYear = 2
    /// Apple's `extendReasonCode`s (Presentation names them).
    public static let reasonCodes = 0...3

    /// Why Apple would refuse; nil when it may be asked.
    public static func refusal(_ subscription: Subscription, days: Int, sentInLastYear: Int, now: Millis) -> ExtensionRefusal? {
        guard (1...maxDays).contains(days) else { return .days(days) }
        guard subscription.status == .active || subscription.status == .gracePeriod else { return .notActive(subscription.status) }
        guard (subscription.expiresAt ?? .max) > now else { return .periodEnded(subscription.expiresAt) }
        guard sentInLastYear < maxPerYear else { return .yearlyLimit(sent: sentInLastYear) }
        return nil
    }
}

/// Why an extension is refused before Apple is asked.
public enum ExtensionRefusal: Sendable, Equatable {
    /// Outside 1 to ``ExtensionRule/maxDays``.
    case days(Int)
    /// Apple extends only an active subscription (or one in its grace period).
    case notActive(SubscriptionStatus)
    case periodEnded(Millis?)
    /// ``ExtensionRule/maxPerYear`` were sent in the last 365 days.
    case yearlyLimit(sent: Int)
    /// Another extension of the subscription is on its way to Apple.
    case anotherBeingSent
}
