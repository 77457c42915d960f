import OrderDomain
import SQLKit

extension Reports {
    /// Served by the partial indexes on orders that need an operator and on Google Play
    /// purchases not acknowledged; empty when none do. A Play purchase Google refunds by
    /// itself within a day unless acknowledged is an alert before it happens.
    public func operatorAlerts(limit: Int = 5, at now: Millis = .now()) async throws -> [OperatorAlert] {
        try await store.read { sql in
            let orders = try await sql.rows(
                """
                SELECT reason_code, COUNT(*) AS n, MIN(state_changed_at) AS since, MAX(reason_details) AS details,
                  MAX(last_error) AS words FROM orders
                WHERE needs_operator = 1 GROUP BY reason_code ORDER BY n DESC, reason_code LIMIT \(literal: limit)
                """
            ).map { row in
                OperatorAlert(
                    reason: try row.optionalString("reason_code").flatMap(OrderReason.init(code:)) ?? .unclassified, orders: try row.int("n"),
                    since: try row.int64("since"),
                    example: try ReasonParticulars(
                        stored: try row.optionalString("details"), words: try row.optionalString("words"), of: "an order waiting for an operator"))
            }
            guard
                let risk = try await sql.row(
                    """
                    SELECT COUNT(*) AS n, MIN(acknowledge_by) AS first FROM play_purchases
                    WHERE acknowledged = 0 AND acknowledge_by IS NOT NULL AND acknowledge_by <= \(bind: now + Self.acknowledgementWarning)
                    """), try risk.int("n") > 0, let first = try risk.optionalInt64("first")
            else { return orders }
            let alert = OperatorAlert(
                reason: .googleAcknowledgementDue, orders: try risk.int("n"), since: first - PlayPurchaseFacts.acknowledgeWithin, deadline: first)
            return Array(([alert] + orders).sorted { $0.orders > $1.orders }.prefix(limit))
        }
    }

    /// How long before Google's deadline an unacknowledged purchase becomes an alert.
    public static let acknowledgementWarning: Millis = .hours(24)
}
