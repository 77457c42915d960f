import SQLKit

extension Reports {
    /// Totals `kind` between `from` (inclusive) and `until` (exclusive), each range read
    /// from an index on its time (migration 16).
    public func finance(_ kind: FinanceReport.Kind, from: Millis, until: Millis) async throws -> FinanceReport {
        let query: SQLQueryString =
            switch kind {
            case .deliveries:
                """
                SELECT o.product_id, o.environment, COUNT(*) AS n, CAST(SUM(o.quantity) AS BIGINT) AS units
                FROM grants g JOIN orders o ON o.order_id = g.order_id
                WHERE g.granted_at >= \(bind: from) AND g.granted_at < \(bind: until)
                GROUP BY o.product_id, o.environment
                """
            case .refunds:
                """
                SELECT o.product_id, o.environment, COUNT(*) AS n, CAST(SUM(o.quantity) AS BIGINT) AS units
                FROM transactions t JOIN orders o ON o.order_id = t.order_id
                WHERE t.cancellation_date >= \(bind: from) AND t.cancellation_date < \(bind: until)
                GROUP BY o.product_id, o.environment
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
                productId: product, environment: try row.optionalString("environment").flatMap(AppleEnvironment.init(rawValue:)),
                count: try row.int64("n"), units: try row.int64("units"), priceMinor: price[product]?.0, currency: price[product]?.1)
        }
        .sorted { ($0.productId, $0.environment?.rawValue ?? "") < ($1.productId, $1.environment?.rawValue ?? "") }
        return FinanceReport(kind: kind, from: from, until: until, rows: rows)
    }
}
