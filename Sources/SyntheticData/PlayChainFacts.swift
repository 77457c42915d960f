import OrderDomain
@_spi(BulkLoad) import OrderStore

/// What Google reports of one synthetic purchase token: a one-time purchase's, or a
/// subscription chain's (one token for all its periods: its latest order and when the
/// first was paid).
struct PlayChainFacts {
    let token: String
    let product: String
    /// The orders the chain's history has drawn so far (`GPA.…`, then `..0`, `..1`).
    var periods = 0
    var latestOrder: String?
    /// The game account that bought it first: the one the game's obfuscated id names.
    var account: String?
    var firstPaidAt: Millis?
    var paidAt: Millis?
    var test = false

    init(token: String, product: String) {
        self.token = token
        self.product = product
    }

    /// A period paid: the chain's latest order is this one.
    mutating func latest(order: String, account: String, paidAt: Millis, test: Bool) {
        latestOrder = order
        self.account = self.account ?? account
        firstPaidAt = firstPaidAt ?? paidAt
        self.paidAt = paidAt
        self.test = self.test || test
    }

    /// The `play_purchases` row, in `BulkRows.playPurchaseColumns` order. Unacknowledged
    /// purchases keep Google's three-day deadline.
    func row(
        kind: PlayPurchaseFacts.Kind, order: String, account: String, purchasedAt: Millis, expires: Millis?, autoRenew: Bool?, acknowledgedAt: Millis?,
        consumed: Bool, test: Bool, seenAt: Millis, subscriptionState: String? = nil
    ) -> BulkRows.Values {
        let none: Int64? = nil
        return [
            token, DemoCatalogue.bundleId, product, kind.rawValue, order, PlayPurchaseFacts.State.purchased.rawValue, acknowledgedAt == nil ? 0 : 1,
            consumed ? 1 : 0, 1, purchasedAt, expires, subscriptionState, autoRenew.map { $0 ? 1 : 0 } ?? none, token, "acct-" + account, "US",
            test ? 1 : 0, acknowledgedAt == nil ? purchasedAt + .hours(72) : nil, acknowledgedAt, consumed ? acknowledgedAt : nil, seenAt, seenAt,
        ]
    }
}
