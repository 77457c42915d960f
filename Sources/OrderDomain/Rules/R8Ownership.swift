/// R8: who owns an auto-renewing subscription when one Apple ID serves several accounts [S3].
///
/// Apple keys subscriptions by Apple ID; games let one Apple ID play many accounts. A
/// renewal under original transaction id X submitted by account B belongs to X's owner A
/// while A is still auto-renewing ("还在自动续费中") at the renewal's purchase date;
/// otherwise ownership moves to B.
public enum OwnershipRule {
    /// Apple renews up to a day before a period ends and dates the renewal at the old end;
    /// a renewal purchased later than this after the owner's last period is no renewal of
    /// theirs but a new purchase after their subscription lapsed.
    public static let renewalWindow: Millis = .hours(24)

    /// The owner and the facts about their subscription that R8 weighs, as true just
    /// before the renewal was bought.
    public struct OwnerFacts: Sendable, Equatable {
        public var accountId: String
        public var autoRenew: Bool
        public var status: SubscriptionStatus
        /// The end of the owner's last period bought before the renewal.
        public var periodEnd: Millis?

        public init(accountId: String, autoRenew: Bool, status: SubscriptionStatus = .active, periodEnd: Millis? = nil) {
            self.accountId = accountId
            self.autoRenew = autoRenew
            self.status = status
            self.periodEnd = periodEnd
        }
    }

    /// Why an owner is no longer auto-renewing.
    public enum Lapse: Sendable, Equatable, Codable {
        case autoRenewOff
        case expired(at: Millis)
        case refunded
        case revoked

    }

    public enum Decision: Sendable, Equatable, StoredJSON {
        /// X had no owner: the submitter becomes the owner.
        case firstOwner(String)
        /// The submitter already owns X.
        case sameOwner
        /// The owner is still auto-renewing: the renewal is theirs; the submitter's order is disputed.
        case ownerKeeps(owner: String)
        /// The owner stopped renewing: ownership moves to the submitter.
        case transfer(from: String, to: String, because: Lapse)

        public var verdict: OwnershipVerdict {
            switch self {
            case .firstOwner: .firstOwner
            case .sameOwner: .sameOwner
            case .ownerKeeps: .ownerKeeps
            case .transfer: .transfer
            }
        }

        /// Decisions an operator should look at (the Rules article, R8).
        public var needsReview: Bool {
            switch self {
            case .ownerKeeps, .transfer: true
            case .firstOwner, .sameOwner: false
            }
        }
    }

    /// Nil when the owner still auto-renews at `moment`; otherwise why not.
    public static func lapse(of owner: OwnerFacts, at moment: Millis) -> Lapse? {
        switch owner.status {
        case .refunded: return .refunded
        case .revoked: return .revoked
        case .billingRetry, .gracePeriod: return owner.autoRenew ? nil : .autoRenewOff
        case .active, .expired: break
        }
        guard owner.autoRenew else { return .autoRenewOff }
        if let end = owner.periodEnd, end + renewalWindow < moment { return .expired(at: end) }
        return nil
    }

    /// R8 for a transaction bought at `purchasedAt` under a subscription `owner` holds.
    public static func decide(owner: OwnerFacts?, submitter: String, purchasedAt: Millis) -> Decision {
        guard let owner else { return .firstOwner(submitter) }
        if owner.accountId == submitter { return .sameOwner }
        if let lapse = lapse(of: owner, at: purchasedAt) { return .transfer(from: owner.accountId, to: submitter, because: lapse) }
        return .ownerKeeps(owner: owner.accountId)
    }
}

/// The verdicts kept in the ownership history; operator moves have their own.
public enum OwnershipVerdict: String, Sendable, Codable, CaseIterable {
    case firstOwner = "first_owner"
    case sameOwner = "same_owner"
    case ownerKeeps = "owner_keeps"
    case transfer
    case operatorTransfer = "operator_transfer"
}
