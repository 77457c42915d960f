/// What a game must hear when a subscription changes in a transaction — one
/// decision, made by comparing the subscription before the transaction with after it.
/// A first purchase, a refund and a revoke are told by their order's own event; this
/// rule tells what has no order of its own: a renewal or extension (the period end moved
/// later), an expiry, and ownership moving from one account to another (R8).
public enum SubscriptionEventRule {
    public struct Change: Sendable, Equatable {
        public var type: GameEventType
        public var gives: Bool
        /// Whose entitlement changes.
        public var account: String
        public var until: Millis?

        public init(type: GameEventType, gives: Bool, account: String, until: Millis? = nil) {
            self.type = type
            self.gives = gives
            self.account = account
            self.until = until
        }
    }

    /// `renewalToldAlready`: the transaction delivered an order of this subscription and
    /// told the game so (its event carries the new end), so no separate renewal event.
    public static func changes(before: Subscription, after: Subscription, renewalToldAlready: Bool) -> [Change] {
        let lapsed: Set<SubscriptionStatus> = [.expired, .refunded, .revoked]
        // Nobody to tell while no order holds it; its first owner hears of it from their order's delivery.
        guard let owner = after.ownerAccount, let previous = before.ownerAccount else { return [] }
        if previous != owner {
            return [
                Change(type: .ownershipTransferred, gives: false, account: previous, until: nil),
                Change(type: .ownershipTransferred, gives: true, account: owner, until: after.expiresAt),
            ]
        }
        if after.status == .expired, before.status != .expired {
            return [Change(type: .subscriptionExpired, gives: false, account: owner, until: after.expiresAt)]
        }
        if let end = after.expiresAt, end > (before.expiresAt ?? .min), !lapsed.contains(after.status), !renewalToldAlready {
            return [Change(type: .subscriptionRenewed, gives: true, account: owner, until: end)]
        }
        return []
    }
}
