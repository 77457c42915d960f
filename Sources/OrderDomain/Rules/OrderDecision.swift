/// What the rules decided for one order, as a value: the order as the decision leaves it
/// (state, reason, retry schedule, flags), how the change is audited, the account marked,
/// the grant written or taken back and what the game is told. The rules that make it (``OrderRules``)
/// read no database and ask no store; the store applies it in one step, for both stores.
public struct OrderDecision: Sendable, Equatable {
    /// Which decision it is, for what its audit entry says beside the reason.
    public enum Move: Sendable, Equatable {
        /// R1: the receipt is stored; the order is owed a verification.
        case receiptReceived(submission: Int64, source: SubmissionSource)
        /// R4: the order waits for the next try; `ourSetup` when our own configuration is why.
        case retry(ourSetup: Bool)
        /// R3, R5: the answer proves the purchase does not pay for this order.
        case reject
        /// R7: another order holds the purchase.
        case replay
        /// R9: the store refunded or revoked the purchase.
        case refund
        /// R8: the renewal belongs to another account; the order waits for an operator.
        case dispute
        /// R11: Apple's answer does not confirm a delivery made by hand.
        case unconfirmed
        /// R7/R11: the purchase paid for another order too.
        case doubleDelivery
        /// An operator took a delivery back.
        case revokedByOperator
        /// An operator settled a disputed renewal for its owner.
        case settledForOwner
        /// R5, R6: the answer proves the purchase, which R7 let the order claim (a restore of
        /// `restoreOf`'s purchase by the same account, or a purchase of its own).
        case verified(restoreOf: String?)
        /// R11: delivered once; `confirmed` when the purchase that paid is named.
        case deliver(confirmed: Bool)
        /// R7, R11: Apple's answer confirms a delivery made by hand: the grant is linked to the
        /// purchase that paid.
        case confirmed
    }

    /// The grant a delivery writes (R11: one live grant per order).
    public struct Grant: Sendable, Equatable {
        public var kind: GrantKind
        public var transactionId: String?

        public init(kind: GrantKind, transactionId: String?) {
            self.kind = kind
            self.transactionId = transactionId
        }
    }

    /// The live grant taken back: by whom, and why (the store's decision, or an operator's words).
    public struct Revoke: Sendable, Equatable {
        public var by: String
        public var why: Why?
        public var words: String?

        public init(by: String, why: Why? = nil, words: String? = nil) {
            self.by = by
            self.why = why
            self.words = words
        }
    }

    public var move: Move
    /// The order as the decision leaves it.
    public var order: Order
    public var audit: AuditAction
    /// The operator's own words, for the audit entry (and the game's event) of their act.
    public var operatorWords: String? = nil
    /// The account marked (R7: a replay; R11: two deliveries).
    public var flag: AccountFlagKind? = nil
    /// Another order the decision is audited on too (the one holding a purchase delivered twice).
    public var alsoAudits: String? = nil
    /// The live grant taken back; nil when none is.
    public var revoke: Revoke? = nil
    /// The grant written (a delivery); nil when none is.
    public var grant: Grant? = nil
    /// What the game is told.
    public var event: GameEventType? = nil
    /// How the verification attempt ended, when an answer led to the decision.
    public var outcome: AttemptOutcome? = nil
}
