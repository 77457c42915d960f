import SQLKit

/// Paid orders waiting for a person, grouped by why: a wrong shared secret, a key Apple
/// refuses, an exhausted retry schedule, two deliveries for one purchase. The console
/// shows the largest group as a banner on every screen until it is fixed.
public struct OperatorAlert: Sendable, Equatable {
    public var reason: String
    public var orders: Int
    /// The oldest of these orders' last state change.
    public var since: Millis

    /// Every field, for a screen or a report built from values (a test, a preview).
    public init(reason: String, orders: Int, since: Millis) {
        self.reason = reason
        self.orders = orders
        self.since = since
    }
}

extension Reports {
    /// Served by the partial index on orders that need an operator; empty when none do.
    public func operatorAlerts(limit: Int = 5) async throws -> [OperatorAlert] {
        try await store.read { sql in
            try await sql.rows(
                """
                SELECT last_error, COUNT(*) AS n, MIN(state_changed_at) AS since FROM orders
                WHERE needs_operator = 1 GROUP BY last_error ORDER BY n DESC, last_error LIMIT \(bind: limit)
                """
            ).map { row in
                OperatorAlert(reason: try row.optionalString("last_error") ?? "needs an operator", orders: try row.int("n"), since: try row.int64("since"))
            }
        }
    }
}
