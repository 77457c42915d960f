/// Apple's eligibility rules for Extend a Subscription Renewal Date, checked before Apple is
/// asked (apple-and-peers-2026: at most 90 days, at most two extensions in 365 days, an
/// active subscription). Apple checks again, with what iapdesk cannot see (a free offer).
public enum ExtensionRule {
    public static let maxDays = 90
    public static let maxPerYear = 2
    /// Apple's `extendReasonCode`s in words.
    public static let reasonCodes = [0: "undeclared", 1: "customer satisfaction", 2: "other", 3: "service issue or outage"]

    /// Why Apple would refuse; nil when it may be asked.
    public static func refusal(_ subscription: Subscription, days: Int, sentInLastYear: Int, now: Millis) -> String? {
        guard (1...maxDays).contains(days) else { return "Apple extends by 1 to \(maxDays) days, not \(days)" }
        guard subscription.status == .active || subscription.status == .gracePeriod else {
            return "it is \(subscription.status.rawValue); Apple extends only an active subscription"
        }
        guard (subscription.expiresAt ?? .max) > now else { return "its period ended \(subscription.expiresAt?.iso8601 ?? "")" }
        guard sentInLastYear < maxPerYear else { return "it was extended \(sentInLastYear) times in the last 365 days; Apple allows \(maxPerYear)" }
        return nil
    }
}
