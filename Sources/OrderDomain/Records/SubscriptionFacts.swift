/// Apple's facts about one subscription at a moment, as the store keeps them: the facts of
/// the latest moment Apple signed win, whatever order they arrive in.
package struct SubscriptionFacts: Equatable {
    package var autoRenew: Bool
    package var status: SubscriptionStatus
    package var expiresAt: Millis?
    package var asOf: Millis
    package var source: FactSource
    /// The rest of Apple's renewal info; nil when the source carried none (the stored stays).
    package var renewal: RenewalFacts? = nil

    package init(autoRenew: Bool, status: SubscriptionStatus, expiresAt: Millis?, asOf: Millis, source: FactSource, renewal: RenewalFacts? = nil) {
        self.autoRenew = autoRenew
        self.status = status
        self.expiresAt = expiresAt
        self.asOf = asOf
        self.source = source
        self.renewal = renewal
    }
}
