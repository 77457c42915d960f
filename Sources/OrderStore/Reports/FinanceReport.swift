import OrderDomain
import SQLKit

extension Reports {
    /// Totals `kind` between `from` (inclusive) and `until` (exclusive) by store, product and
    /// environment, each range read from an index on its time (migration 16); with `store`,
    /// that store's alone.
    public func finance(_ kind: FinanceReport.Kind, from: Millis, until: Millis, store marketplace: Marketplace? = nil) async throws -> FinanceReport {
        let only: SQLQueryString = marketplace.map { " AND o.marketplace = \(bind: $0.rawValue)" } ?? ""
        let query: SQLQueryString =
            switch kind {
            case .deliveries:
                """
                SELECT o.marketplace, o.product_id, o.environment, COUNT(*) AS n, CAST(SUM(o.quantity) AS BIGINT) AS units
                FROM grants g JOIN orders o ON o.order_id = g.order_id
                WHERE g.granted_at >= \(bind: from) AND g.granted_at < \(bind: until)\(only)
                GROUP BY o.marketplace, o.product_id, o.environment
                """
            case .refunds:
                """
                SELECT o.marketplace, o.product_id, o.environment, COUNT(*) AS n, CAST(SUM(o.quantity) AS BIGINT) AS units
                FROM transactions t JOIN orders o ON o.order_id = t.order_id
                WHERE t.cancellation_date >= \(bind: from) AND t.cancellation_date < \(bind: until)\(only)
                GROUP BY o.marketplace, o.product_id, o.environment
                """
            }
        let (totals, prices) = try await store.read { sql in
            (try await sql.rows(query), try await sql.rows("SELECT product_id, price_minor, currency FROM products"))
        }
        var price: [String: (Int64, String)] = [:]
        for row in prices { price[try row.string("product_id")] = (try row.int64("price_minor"), try row.string("currency")) }
        let rows = try totals.map { row in
            let product = try row.string("product_id")
            return FinanceReport.Row(
                marketplace: try row.optionalValue("marketplace", as: Marketplace.self) ?? .appStore, productId: product,
                environment: try row.optionalString("environment").flatMap(AppleEnvironment.init(rawValue:)),
                count: try row.int64("n"), units: try row.int64("units"), priceMinor: price[product]?.0, currency: price[product]?.1)
        }
        .sorted {
            ($0.marketplace.rawValue, $0.productId, $0.environment?.rawValue ?? "") < ($1.marketplace.rawValue, $1.productId, $1.environment?.rawValue ?? "")
        }
        return FinanceReport(kind: kind, from: from, until: until, rows: rows)
    }
}
