import OrderDomain
import SQLKit

extension Subscriptions {
    /// The x-ray of `originalTransactionId` (a subscription, or any purchase's original id).
    public func xray(_ originalTransactionId: String, limit: Int = 500) async throws -> XRay {
        let detail = try await detail(originalTransactionId, limit: limit)
        let orderIds = detail.orders.map(\.orderId)
        let targets = ([AuditTarget.originalTransaction(originalTransactionId)] + orderIds.map(AuditTarget.order)).map(\.description)
        return try await store.read { sql in
            let events =
                orderIds.isEmpty
                ? []
                : try await sql.rows(
                    "SELECT \(unsafeRaw: GameEvent.Column.list) FROM events WHERE order_id IN (\(binds: orderIds)) ORDER BY id LIMIT \(literal: limit)"
                ).map(GameEvent.init(row:))
            let audit = try await sql.rows(
                "SELECT \(unsafeRaw: AuditEntry.Column.list) FROM audit_log WHERE target IN (\(binds: targets)) ORDER BY seq LIMIT \(literal: limit)"
            ).map(AuditEntry.init(row:))
            return XRay(detail: detail, events: events, audit: audit)
        }
    }
}
