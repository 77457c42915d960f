import OrderDomain

/// A cursor in the stuck queue (oldest first).
public struct StuckCursor: Sendable, Equatable {
    public var stuckSince: Millis
    public var orderId: String
}

extension Reports {
    /// The stuck queue, oldest first, with attempts, last error and next retry.
    public func stuck(now: Millis = .now(), after cursor: StuckCursor? = nil, limit: Int = 50) async throws -> (items: [StuckOrder], next: StuckCursor?) {
        let cutoff = now - store.settings.stuckThreshold
        let after = cursor ?? StuckCursor(stuckSince: Int64.min, orderId: "")
        let orders = try await store.read { sql in
            try await sql.rows(
                """
                SELECT \(unsafeRaw: Order.Column.list) FROM orders
                WHERE stuck_since IS NOT NULL AND stuck_since <= \(bind: cutoff)
                  AND (stuck_since, order_id) > (\(bind: after.stuckSince), \(bind: after.orderId))
                ORDER BY stuck_since, order_id LIMIT \(literal: limit)
                """
            ).map(Order.init(row:))
        }
        var items = orders.map { StuckOrder(order: $0, age: now - ($0.stuckSince ?? now)) }
        // Only Google Play's rows ask, all in one read: an Apple-only queue costs what it did.
        let play = items.filter { $0.order.marketplace == .googlePlay }.map(\.order.orderId)
        if !play.isEmpty {
            let deadlines = try await store.read { sql in
                try await sql.rows(
                    """
                    SELECT s.order_id, MIN(p.acknowledge_by) AS by FROM receipt_submissions s
                    JOIN play_purchases p ON p.purchase_token = s.purchase_token
                    WHERE s.order_id IN (\(binds: play)) AND p.acknowledged = 0 GROUP BY s.order_id
                    """
                ).map { (try $0.string("order_id"), try $0.optionalInt64("by")) }
            }
            let byOrder = Dictionary(deadlines, uniquingKeysWith: { first, _ in first })
            for index in items.indices { items[index].acknowledgeBy = byOrder[items[index].order.orderId] ?? nil }
        }
        let next = orders.count == limit ? orders.last.flatMap { o in o.stuckSince.map { StuckCursor(stuckSince: $0, orderId: o.orderId) } } : nil
        return (items, next)
    }
}
