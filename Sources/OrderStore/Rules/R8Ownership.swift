/// R8: who owns an auto-renewing subscription when one Apple ID serves several accounts [S3].
///
/// Apple keys subscriptions by Apple ID; games let one Apple ID play many accounts. A
/// renewal under original transaction id X submitted by account B belongs to X's owner A
/// while A is still auto-renewing; otherwise ownership moves to B.
public enum OwnershipRule {
    /// The owner as the store knew it before this submission.
    public struct CurrentOwner: Sendable, Equatable {
        public var accountId: String
        public var autoRenewing: Bool
        public init(accountId: String, autoRenewing: Bool) {
            self.accountId = accountId
            self.autoRenewing = autoRenewing
        }
    }

    public enum Decision: Sendable, Equatable {
        /// X had no owner: the submitter becomes the owner.
        case firstOwner(String)
        /// The submitter already owns X.
        case sameOwner
        /// The owner is still auto-renewing: the renewal is theirs; the submitter's order is disputed.
        case ownerKeeps(owner: String)
        /// The owner stopped renewing: ownership moves to the submitter.
        case transfer(from: String, to: String)

        /// A human-readable why, kept with the decision for review.
        public var explanation: String {
            switch self {
            case .firstOwner(let account): "no owner yet; \(account) becomes owner"
            case .sameOwner: "submitter already owns the subscription"
            case .ownerKeeps(let owner): "owner \(owner) is still auto-renewing, so the renewal is theirs"
            case .transfer(let from, let to): "owner \(from) no longer auto-renews; ownership moves to \(to)"
            }
        }

        /// Decisions an operator should look at (DESIGN.md §3 R8).
        public var needsReview: Bool {
            switch self {
            case .ownerKeeps, .transfer: true
            case .firstOwner, .sameOwner: false
            }
        }
    }

    public static func decide(current: CurrentOwner?, submitter: String) -> Decision {
        guard let current else { return .firstOwner(submitter) }
        if current.accountId == submitter { return .sameOwner }
        return current.autoRenewing ? .ownerKeeps(owner: current.accountId) : .transfer(from: current.accountId, to: submitter)
    }
}
