/// A purchase token as the store keeps it: Google's facts, the first token of its chain,
/// and what iapdesk did with it.
public struct StoredPlayPurchase: Sendable, Equatable {
    public var facts: PlayPurchaseFacts
    /// The first token of the chain (the subscription's id, as Apple's original transaction id).
    public var rootToken: String
    /// Google refunds it unless acknowledged by then; nil once acknowledged.
    public var acknowledgeBy: Millis?
    public var acknowledgedAt: Millis?
    public var consumedAt: Millis?
    public var firstSeenAt: Millis

    public init(
        facts: PlayPurchaseFacts, rootToken: String, acknowledgeBy: Millis? = nil, acknowledgedAt: Millis? = nil, consumedAt: Millis? = nil,
        firstSeenAt: Millis
    ) {
        self.facts = facts
        self.rootToken = rootToken
        self.acknowledgeBy = acknowledgeBy
        self.acknowledgedAt = acknowledgedAt
        self.consumedAt = consumedAt
        self.firstSeenAt = firstSeenAt
    }
}
