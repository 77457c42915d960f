import Foundation

/// What a game must act on, as the outbox tells it.
public enum GameEventType: String, Sendable, Codable, CaseIterable {
    /// A purchase was delivered (by the rules, an operator, or a restore): give it.
    case delivered
    /// An operator took a delivery back: take it away.
    case revoked
    /// Apple refunded or revoked the purchase (R9): take it away.
    case refunded
    /// Apple reversed a refund: give it again.
    case refundReversed = "refund_reversed"
    /// A subscription's period end moved later (a renewal, an extension) with no order of
    /// its own: entitled until the new end.
    case subscriptionRenewed = "subscription_renewed"
    /// A subscription's period ended without renewal: the entitlement ends.
    case subscriptionExpired = "subscription_expired"
    /// R8 or an operator moved a subscription: taken from one account, given to another
    /// (two events, one per account).
    case ownershipTransferred = "ownership_transferred"
    /// Apple refunded a share of a pack (`REFUND_PRORATED`): take that share back.
    case partiallyRefunded = "partially_refunded"
    /// A parent withdrew consent for the app (RESCIND_CONSENT): end the account's access
    /// to the app, whatever it bought. About an account, not an order.
    case consentRescinded = "consent_rescinded"

    /// What the game does, for the event types that always do the same.
    package var gives: Bool { self == .delivered || self == .refundReversed || self == .subscriptionRenewed }
}

/// One event in the outbox: what the game is told, and how telling it went.
public struct GameEvent: Sendable, Equatable {
    /// The cursor: events are numbered in commit order per store.
    public var id: Int64
    /// Stable and unique: the game applies an event once by this id.
    public var eventId: String
    /// What happened to the account: delivered, revoked, refunded, renewed…
    public var type: GameEventType
    /// The order it is about; nil for an event about a subscription alone.
    public var orderId: String?
    /// The game account the game should change.
    public var accountId: String
    /// When the change it reports was committed (in the same transaction).
    public var createdAt: Millis
    /// The JSON body the game receives, fixed when the event was written.
    public var payload: String
    /// Tries to push it to the game so far.
    public var attempts: Int64
    public var lastAttemptAt: Millis?
    /// The game's HTTP status on the last try; nil when it did not answer.
    public var lastStatus: Int?
    /// Why the last try failed, in words.
    public var lastError: String?
    /// When the game confirmed it; nil while the game has not been told.
    public var confirmedAt: Millis?
    /// `push` (the game answered 2xx) or `pull` (it acknowledged a cursor past it).
    public var confirmedVia: String?
    /// Set when retries ran out; an operator resends it.
    public var deadAt: Millis?

    /// Every field, for a screen or a report built from values (a test, a preview).
    public init(
        id: Int64, eventId: String, type: GameEventType, orderId: String? = nil, accountId: String, createdAt: Millis, payload: String, attempts: Int64,
        lastAttemptAt: Millis? = nil, lastStatus: Int? = nil, lastError: String? = nil, confirmedAt: Millis? = nil, confirmedVia: String? = nil,
        deadAt: Millis? = nil
    ) {
        self.id = id
        self.eventId = eventId
        self.type = type
        self.orderId = orderId
        self.accountId = accountId
        self.createdAt = createdAt
        self.payload = payload
        self.attempts = attempts
        self.lastAttemptAt = lastAttemptAt
        self.lastStatus = lastStatus
        self.lastError = lastError
        self.confirmedAt = confirmedAt
        self.confirmedVia = confirmedVia
        self.deadAt = deadAt
    }
}

/// How the game learned of an event. Stored as ``rawValue`` (`event_attempts.via`,
/// `events.confirmed_via`).
public enum EventChannel: String, Sendable, CaseIterable, Codable {
    /// Sent to the game's webhook, which answered 2xx.
    case push
    /// Read from the pull feed and acknowledged by its cursor.
    case pull
    /// Delivered before the outbox kept events; recorded as confirmed then.
    case history
}

/// One try to tell the game.
public struct GameEventAttempt: Sendable, Equatable {
    public var at: Millis
    /// How it was sent: always a push (a pulled event is acknowledged by cursor, not tried).
    public var via: EventChannel
    /// The game's HTTP status; nil when it did not answer.
    public var httpStatus: Int?
    /// What the game answered (shortened), or why there was no answer.
    public var answer: String?
    /// How long the game took, or how long the outbox waited.
    public var latencyMs: Int64?

    public init(at: Millis, via: EventChannel, httpStatus: Int?, answer: String?, latencyMs: Int64?) {
        self.at = at
        self.via = via
        self.httpStatus = httpStatus
        self.answer = answer
        self.latencyMs = latencyMs
    }

    /// The game answered 2xx: the event is confirmed.
    public var succeeded: Bool { httpStatus.map { (200..<300).contains($0) } ?? false }
}

/// The body of an event, built once in the transaction that makes the change: what
/// happened, to which order and purchase, and what the game should do about it, in
/// fields a program reads (`effect`) and a sentence a person reads (`summary`).
package struct GameEventPayload {
    package var eventId: String
    package var type: GameEventType
    package var at: Millis
    package var order: Order
    package var product: Product?
    package var grantKind: GrantKind?
    package var reason: String?
    /// The account the event is about (the order's, or the subscription's owner).
    package var account: String
    /// Whose balance or entitlement changes (a subscription's owner under R8).
    package var effectAccount: String
    /// A subscription's period end.
    package var until: Millis?
    /// Give or take.
    package var gives: Bool
    /// A share of the purchase rather than all of it (a partial refund, or its reversal).
    package var share: PartialShare? = nil
    /// The purchase's terms, as Apple signed them (for a subscription, its latest period's).
    package var terms: GameEventBody.Terms? = nil

    /// A give whose period is already over when the event is written (an old purchase
    /// attached, a renewal learned late): the game is told there is nothing to give, never
    /// "give … until" a past date.
    package var periodOver: Bool { gives && (until.map { $0 <= at } ?? false) }

    package var body: GameEventBody {
        let productName = product?.displayName ?? order.productId
        var effect = GameEventBody.Effect(
            op: periodOver ? .none : gives ? .give : .take, accountId: effectAccount, productId: order.productId,
            quantity: share?.units ?? order.quantity, until: until, share: share?.fraction)
        if let items = product?.gives, !items.isEmpty { effect.gives = items }
        let who = effectAccount
        var summary = gives ? "give \(who) \(order.quantity) × \(productName)" : "take \(order.quantity) × \(productName) back from \(who)"
        if let until, gives { summary += " until \(until.iso8601)" }
        if let until, periodOver { summary = "nothing to give \(who): \(order.quantity) × \(productName) ended \(until.iso8601)" }
        if let share {
            let part = "\(share.percent) of \(order.quantity) × \(productName) (\(share.units) whole)"
            summary = gives ? "give \(who) back \(part)" : "take \(part) back from \(who)"
        }
        var body = GameEventBody(id: eventId, type: type, createdAt: at, accountId: account, effect: effect, summary: summary)
        body.orderId = order.orderId
        body.productId = order.productId
        body.quantity = order.quantity
        body.productType = product?.type
        // A studio's game servers share one feed: each applies its own app's events.
        body.app = order.app ?? product?.app
        body.store = order.marketplace
        body.transactionId = order.transactionId
        body.originalTransactionId = order.originalTransactionId
        body.environment = order.environment
        body.grantKind = grantKind
        body.reason = reason
        if type == .refunded || type == .revoked { body.reasonCode = order.reason }
        if type == .partiallyRefunded { body.reasonCode = .refunded(order.marketplace) }
        body.terms = terms
        return body
    }

    /// Stable and unique, so a game applies an event once.
    package static func newId() -> String { "evt_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "") }

}

extension GameEventPayload {
    /// The event about `order` from what the store knows of it: for a subscription
    /// (`subscription`, its row) the effect names its owner and period end (R8) unless
    /// `change` (a renewal, expiry or transfer from SubscriptionEventRule) says otherwise;
    /// `bought` is the purchase whose terms it carries (a subscription's latest period).
    package init(
        _ type: GameEventType, eventId: String, at: Millis, order: Order, product: Product?, subscription: Subscription?,
        bought: StoredTransaction?, grantKind: GrantKind?, reason: String?, change: SubscriptionEventRule.Change?, share: PartialShare?
    ) {
        self.init(
            eventId: eventId, type: type, at: at, order: order, product: product, grantKind: grantKind, reason: reason,
            account: change?.account ?? order.accountId, effectAccount: change?.account ?? subscription?.ownerAccount ?? order.accountId,
            until: change.map(\.until) ?? subscription?.expiresAt, gives: change?.gives ?? type.gives, share: share,
            terms: bought.flatMap { GameEventBody.Terms($0.transaction) })
    }
}

/// A share of a purchase the game gives or takes: Apple's partial refund of a pack.
package struct PartialShare: Equatable {
    /// Thousandths of a percent, as Apple's `revocationPercentage` (50000 is 50 %).
    package var thousandths: Int
    /// Whole units of the order's quantity the share comes to, rounded down: the game
    /// divides a single pack (300 coins) by `fraction` itself.
    package var units: Int

    package var fraction: Double { Double(thousandths) / 100_000 }
    package var percent: String { "\((Double(thousandths) / 1000).formatted()) %" }

    package init(thousandths: Int, units: Int) {
        self.thousandths = thousandths
        self.units = units
    }
}
