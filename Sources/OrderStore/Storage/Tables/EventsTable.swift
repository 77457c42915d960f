import Foundation
import SQLKit

/// The outbox (issue 14): an event is written in the transaction that makes the change
/// it tells of, so a committed grant always has its event and a rolled-back one never does.
extension WriteTransaction {
    /// Writes the event for a change to `order` and owes its account a send.
    func recordEvent(_ type: GameEventType, order: Order, grantKind: GrantKind? = nil, reason: String? = nil) async throws {
        let product = try await sql.row("""
            SELECT product_id, type, display_name, price_minor, currency FROM products WHERE product_id = \(bind: order.productId)
            """).map(Product.init(row:))
        var subscription: Subscription?
        if product?.type == .autoRenewable, let otid = order.originalTransactionId { subscription = try await subscriptionRow(otid) }
        let eventId = "evt_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let payload = GameEventPayload(
            eventId: eventId, type: type, at: now, order: order, product: product, grantKind: grantKind, reason: reason,
            subscriptionUntil: subscription?.expiresAt, subscriptionOwner: subscription?.ownerAccount)
        try await sql.raw("""
            INSERT INTO events (event_id, type, order_id, account_id, created_at, payload)
            VALUES (\(bind: eventId), \(bind: type.rawValue), \(bind: order.orderId), \(bind: order.accountId), \(bind: now), \(bind: payload.json))
            """).run()
        try await enqueue(.sendEvents, subject: order.accountId, dueAt: now)
    }
}

extension Product {
    init(row: Row) throws {
        self.init(productId: try row.string("product_id"), type: try row.value("type", as: ProductType.self),
                  displayName: try row.string("display_name"), priceMinor: try row.int64("price_minor"), currency: try row.string("currency"))
    }
}

extension GameEvent {
    static let columns = """
        id, event_id, type, order_id, account_id, created_at, payload, attempts, last_attempt_at, last_status, last_error,
        confirmed_at, confirmed_via, dead_at
        """

    init(row: Row) throws {
        id = try row.int64("id")
        eventId = try row.string("event_id")
        type = try row.value("type", as: GameEventType.self)
        orderId = try row.optionalString("order_id")
        accountId = try row.string("account_id")
        createdAt = try row.int64("created_at")
        payload = try row.string("payload")
        attempts = try row.int64("attempts")
        lastAttemptAt = try row.optionalInt64("last_attempt_at")
        lastStatus = try row.optionalInt64("last_status").map(Int.init)
        lastError = try row.optionalString("last_error")
        confirmedAt = try row.optionalInt64("confirmed_at")
        confirmedVia = try row.optionalString("confirmed_via")
        deadAt = try row.optionalInt64("dead_at")
    }
}

extension GameEventAttempt {
    init(row: Row) throws {
        self.init(at: try row.int64("at"), via: try row.string("via"), httpStatus: try row.optionalInt64("http_status").map(Int.init),
                  error: try row.optionalString("error"), latencyMs: try row.optionalInt64("latency_ms"))
    }
}
