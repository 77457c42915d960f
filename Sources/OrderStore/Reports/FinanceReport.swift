import SQLKit

/// Deliveries or refunds in a span of time, totalled by product and environment as finance
/// reconciles them with Apple's reports (sandbox purchases apart: Apple pays nothing for them).
public struct FinanceReport: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// Deliveries made in the span (a grant, automatic or by hand).
        case deliveries
        /// Purchases Apple refunded or revoked in the span (their cancellation date).
        case refunds
    }

    public struct Row: Sendable, Equatable {
        public var productId: String
        public var environment: AppleEnvironment?
        /// Deliveries or refunds.
        public var count: Int64
        /// The units they came to (an order of 3 packs is 3).
        public var units: Int64
        /// The catalogue's unit price and currency; nil for a product no longer listed.
        public var priceMinor: Int64?
        public var currency: String?
        public var amountMinor: Int64? { priceMinor.map { $0 * units } }
    }

    public var kind: Kind
    public var from: Millis
    public var until: Millis
    /// By product, then environment.
    public var rows: [Row]
}

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
