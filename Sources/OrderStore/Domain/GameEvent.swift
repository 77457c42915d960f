import Foundation

/// What a game must act on, as the outbox tells it (issue 14).
public enum GameEventType: String, Sendable, Codable, CaseIterable {
    /// A purchase was delivered (by the rules, an operator, or a restore): give it.
    case delivered
    /// An operator took a delivery back: take it away.
    case revoked
    /// Apple refunded or revoked the purchase (R9): take it away.
    case refunded
    /// Apple reversed a refund: give it again.
    case refundReversed = "refund_reversed"

    /// What the game does with the product: give or take.
    var gives: Bool { self == .delivered || self == .refundReversed }
}

/// One event in the outbox: what the game is told, and how telling it went.
public struct GameEvent: Sendable, Equatable {
    /// The cursor: events are numbered in commit order per store.
    public var id: Int64
    /// Stable and unique: the game applies an event once by this id.
    public var eventId: String
    public var type: GameEventType
    public var orderId: String?
    public var accountId: String
    public var createdAt: Millis
    /// The JSON body the game receives, fixed when the event was written.
    public var payload: String
    public var attempts: Int64
    public var lastAttemptAt: Millis?
    /// The game's HTTP status on the last try; nil when it did not answer.
    public var lastStatus: Int?
    public var lastError: String?
    public var confirmedAt: Millis?
    /// `push` (the game answered 2xx) or `pull` (it acknowledged a cursor past it).
    public var confirmedVia: String?
    /// Set when retries ran out; an operator resends it.
    public var deadAt: Millis?

    /// Where it stands, as the CLI and console word it.
    public var stateLabel: String {
        if let confirmedVia, confirmedAt != nil { return "confirmed (\(confirmedVia))" }
        if deadAt != nil { return "DEAD" }
        return attempts == 0 ? "not sent yet" : "retrying"
    }
}

/// One try to tell the game.
public struct GameEventAttempt: Sendable, Equatable {
    public var at: Millis
    /// `push`, `resend` (an operator's) or `pull`.
    public var via: String
    public var httpStatus: Int?
    public var error: String?
    public var latencyMs: Int64?

    public init(at: Millis, via: String, httpStatus: Int?, error: String?, latencyMs: Int64?) {
        self.at = at
        self.via = via
        self.httpStatus = httpStatus
        self.error = error
        self.latencyMs = latencyMs
    }

    public var succeeded: Bool { httpStatus.map { (200..<300).contains($0) } ?? false }
}

/// The body of an event, built once in the transaction that makes the change: what
/// happened, to which order and purchase, and what the game should do about it, in
/// fields a program reads (`effect`) and a sentence a person reads (`summary`).
struct GameEventPayload {
    var eventId: String
    var type: GameEventType
    var at: Millis
    var order: Order
    var product: Product?
    var grantKind: GrantKind?
    var reason: String?
    /// The subscription's period end and owner (R8), for a subscription.
    var subscriptionUntil: Millis?
    var subscriptionOwner: String?

    var json: String {
        let productName = product?.displayName ?? order.productId
        var effect: [String: Any] = [
            "op": type.gives ? "give" : "take", "account_id": subscriptionOwner ?? order.accountId,
            "product_id": order.productId, "quantity": order.quantity,
        ]
        if let subscriptionUntil { effect["until"] = subscriptionUntil }
        let who = subscriptionOwner ?? order.accountId
        var summary = type.gives ? "give \(who) \(order.quantity) × \(productName)" : "take \(order.quantity) × \(productName) back from \(who)"
        if let subscriptionUntil, type.gives { summary += " until \(subscriptionUntil.iso8601)" }
        var body: [String: Any] = [
            "id": eventId, "type": type.rawValue, "created_at": at, "order_id": order.orderId, "account_id": order.accountId,
            "product_id": order.productId, "quantity": order.quantity, "effect": effect, "summary": summary,
        ]
        body["product_type"] = product?.type.rawValue
        body["transaction_id"] = order.transactionId
        body["original_transaction_id"] = order.originalTransactionId
        body["environment"] = order.environment?.rawValue
        body["grant_kind"] = grantKind?.rawValue
        body["reason"] = reason
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
