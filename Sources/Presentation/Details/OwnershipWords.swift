import OrderDomain

/// R8's decisions in words, as the order, subscription and receipt pages say them.
public enum OwnershipWords {
    public static func explanation(_ decision: OwnershipRule.Decision) -> String {
        switch decision {
        case .firstOwner(let account): "no owner yet; \(account) becomes owner"
        case .sameOwner: "submitter already owns the subscription"
        case .ownerKeeps(let owner): "owner \(owner) is still auto-renewing, so the renewal is theirs"
        case .transfer(let from, let to, let lapse): "owner \(from) \(lapsed(lapse)); ownership moves to \(to)"
        }
    }

    /// An ownership event's why: the rule's decision, or the operator's words.
    public static func said(_ event: OwnershipEvent) -> String { event.decision.map(explanation) ?? event.reason }

    /// Why an owner is no longer auto-renewing.
    public static func lapsed(_ lapse: OwnershipRule.Lapse) -> String {
        switch lapse {
        case .autoRenewOff: "turned auto-renew off"
        case .expired(let at): "let the subscription expire on \(at.iso8601)"
        case .refunded: "was refunded"
        case .revoked: "lost it to a revoke (Family Sharing)"
        }
    }
}
