import Foundation

/// What an audit entry records beside its action, target and reason, as facts: the order's
/// move from one state to another and the particulars of what was done (the next try, the
/// purchase a verification found, the days a subscription was extended). Kept in the entry's
/// `detail` column as JSON, chained with the entry; entries written before hold words, read
/// back as ``Fact/words(_:)``. Presentation says it.
public struct AuditDetail: Sendable, Equatable, StoredJSON {
    /// An order's change of state.
    public struct Move: Sendable, Equatable, Codable {
        public var from: OrderState
        public var to: OrderState

        public init(from: OrderState, to: OrderState) {
            self.from = from
            self.to = to
        }

        /// A detail that is this move alone, as the `detail` column keeps it.
        package var storedText: String { #"{"move":{"from":"\#(from.rawValue)","to":"\#(to.rawValue)"}}"# }
    }

    public var move: Move?
    public var fact: Fact?

    public init(move: Move? = nil, _ fact: Fact? = nil) {
        self.move = move
        self.fact = fact
    }

    /// The particulars of an act.
    public enum Fact: Sendable, Equatable, Codable {
        // An order's verification and delivery (R1–R7, R11).
        case submission(id: Int64, source: SubmissionSource, whileIn: OrderState?)
        /// R4: the next try, nil when the schedule is spent; `ourSetup` when it needs an operator anyway.
        case nextTry(at: Millis?, ourSetup: Bool)
        case needsOperator
        case storeConfirms(transactionId: String?)
        case deliveredUnconfirmed
        case restoreOf(holder: String)
        case verified(transactionId: String?, environment: AppleEnvironment?)
        case attached(transactionId: String)
        case imported(placedAt: Millis, accountId: String)

        // R9: refunds and their reversals, whole or in part.
        case claimedByNoOrder
        case orderIs(OrderState, delivered: Bool)
        /// `share` in thousandths of a percent, as Apple signs it; 0 when a reversal gives back.
        case partialRefund(transactionId: String, share: Int, takesBack: Bool, units: Int, of: Int)

        // Subscriptions (R8 and the facts the stores give).
        case owner(from: String?, to: String)
        case unowned(notification: String, status: SubscriptionStatus)
        case olderFacts(notification: String?)
        case facts(status: SubscriptionStatus, autoRenew: Bool, source: FactSource, signedAt: Millis?, notification: String?)
        case extended(days: Int, reasonCode: Int, requestId: String, environment: AppleEnvironment?, newEnd: Millis?, appleSaid: String?)
        case tokenRebound(orderId: String, owner: String, appleSaid: String?)

        // Notifications, Apple's answers and the stores' own records.
        case notification(id: Int64, type: String)
        case notificationReplayed(type: String, was: NotificationOutcome)
        case appleOrder(String, transactions: [String])
        case consumptionAnswer(transactionId: String, ConsumptionAnswer, appleSaid: String?)
        case appleFinished
        case backfill(environment: AppleEnvironment, listed: Int, new: Int, unclaimed: Int)
        case appleAccount(appTransactionId: String)

        // Google Play's desk actions.
        case playAcknowledged(consumed: Bool)
        case playRefundAsked(googleOrderId: String, revoke: Bool)
        case playAttached(tokenPrefix: String)
        case playDeferred(days: Int, newEnd: Millis)
        case playRevokeAsked(prorated: Bool)

        // The desk and the store themselves.
        case note(id: Int64)
        case role(Role)
        case product(Product)
        case app(StoreApp)
        case jobRequeued(kind: JobKind, subject: String, lastError: String?)
        case eventResent(eventId: String, type: GameEventType)
        case eventDead(eventId: String)
        case seed(orders: Int)
        case anchorSignedAgain(headWas: Int64)
        case anchorSigningStarts(keyFingerprint: String)

        /// What an entry written before details were typed said, in words.
        case words(String)
    }

    /// The detail as the `detail` column keeps it: empty for none, JSON otherwise. A bare
    /// move, which a seed writes for every order it settles, is written without the encoder
    /// (state names need no escaping); the text is the encoder's, byte for byte.
    package func storedText() throws -> String {
        switch (move, fact) {
        case (nil, nil): ""
        case (let move?, nil): move.storedText
        default: try json()
        }
    }

    /// A stored detail: JSON for entries from this version on, words for those before.
    public init(storedText: String) {
        self = storedText.isEmpty ? AuditDetail() : Self.unlessWords(storedText) ?? AuditDetail(.words(storedText))
    }
}
