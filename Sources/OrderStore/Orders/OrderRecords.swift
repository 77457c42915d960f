import OrderDomain
import SQLKit

extension Orders {
    /// ``page(_:after:limit:)`` with each order's delivery and refund times and price:
    /// one page of orders, then one statement for their grants and refunds.
    public func records(_ filter: OrderFilter = OrderFilter(), after cursor: OrderCursor? = nil, limit: Int = 500) async throws -> Page<
        OrderRecord
    > {
        let page = try await page(filter, after: cursor, limit: limit)
        guard !page.items.isEmpty else { return Page(items: [], next: nil) }
        let ids = page.items.map(\.orderId)
        let (times, prices) = try await store.read { sql in
            let times = try await sql.rows(
                """
                SELECT o.order_id,
                       (SELECT MIN(g.granted_at) FROM grants g WHERE g.order_id = o.order_id) AS delivered_at,
                       (SELECT MIN(t.cancellation_date) FROM transactions t WHERE t.order_id = o.order_id) AS refunded_at,
                       (SELECT MIN(t.storefront) FROM transactions t WHERE t.order_id = o.order_id) AS storefront
                FROM orders o WHERE o.order_id IN (\(binds: ids))
                """)
            let prices = try await sql.rows("SELECT product_id, price_minor, currency, app FROM products")
            return (times, prices)
        }
        var when: [String: (delivered: Millis?, refunded: Millis?, storefront: String?)] = [:]
        for row in times {
            when[try row.string("order_id")] = (
                try row.optionalInt64("delivered_at"), try row.optionalInt64("refunded_at"), try row.optionalString("storefront")
            )
        }
        var price: [String: (Int64, String, String?)] = [:]
        for row in prices {
            price[try row.string("product_id")] = (try row.int64("price_minor"), try row.string("currency"), try row.optionalString("app"))
        }
        let records = page.items.map { order in
            OrderRecord(
                order: order, deliveredAt: when[order.orderId]?.delivered ?? nil, refundedAt: when[order.orderId]?.refunded ?? nil,
                priceMinor: price[order.productId]?.0, currency: price[order.productId]?.1, storefront: when[order.orderId]?.storefront ?? nil,
                app: price[order.productId]?.2 ?? store.settings.bundleId)
        }
        return Page(items: records, next: page.next)
    }
}
