/// Where a subscription stands, by what Apple signed: one notification's word on its
/// subscription, as of its `signedDate`. The store keeps the word of the latest moment Apple
/// signed (``WriteTransaction/updateFacts(_:productId:_:)`` refuses older facts), so the end
/// state is the same whatever order notifications arrive in, twice or shuffled.
package enum SubscriptionFactsRule {
    /// What notification `n` says of its subscription, given the subscription's periods as
    /// stored with `n`'s own (`chain`); nil when `n` says nothing of a subscription.
    ///
    /// Apple's own `status` decides where it stands; a notification without one (older
    /// payloads) is read from its type, else from the latest period: a refund of an earlier
    /// period does not end a subscription whose latest period stands. Auto-renew and the
    /// rest of the renewal info are the renewal info's; the end is the latest period's.
    package static func facts(of n: NotificationFacts, effect: NotificationEffect, chain: [AppleTransaction], stored: Subscription?, signed: Millis)
        -> SubscriptionFacts?
    {
        guard n.originalTransactionId != nil, n.renewal != nil || n.status != nil || n.transaction?.expiresDate != nil else { return nil }
        let periodEnd = chain.compactMap(\.expiresDate).max()
        let latest = chain.max { ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId) }
        let latestCancelled = latest.flatMap { RefundRule.cancellation(of: $0, type: .autoRenewable) } != nil
        var hintedAutoRenew: Bool?
        let status: SubscriptionStatus
        if let apple = n.status, let said = SubscriptionStatus(apple: apple, familyRevoke: effect == .cancel(.revoke)) {
            status = said
        } else if case .subscriptionStatus(let hinted, let autoRenew) = effect, let hinted {
            (status, hintedAutoRenew) = (hinted, autoRenew)
        } else if case .cancel(let kind) = effect, latestCancelled, latest?.transactionId == n.transaction?.transactionId {
            status = kind == .revoke ? .revoked : .refunded
        } else {
            if case .subscriptionStatus(_, let autoRenew) = effect { hintedAutoRenew = autoRenew }
            status = SubscriptionStatus.from(renewal: n.renewal, periodEnd: periodEnd, refunded: latestCancelled, now: signed)
        }
        return SubscriptionFacts(
            autoRenew: n.renewal?.autoRenewEnabled ?? hintedAutoRenew ?? stored?.autoRenew ?? true, status: status, expiresAt: periodEnd,
            asOf: signed, source: .notification, renewal: n.renewal.map(RenewalFacts.init))
    }
}
