import OrderDomain
import SQLKit

extension Reports {
    /// The refund rates of the orders delivered between `from` and `until`; accounts and
    /// Apple Accounts are the `limit` with the most refunds.
    public func refundRates(from: Millis, until: Millis, limit: Int = 20) async throws -> RefundRates {
        let cohort: SQLQueryString = """
            SELECT DISTINCT o.order_id, o.product_id, o.account_id, o.state FROM grants g JOIN orders o ON o.order_id = g.order_id
            WHERE g.granted_at >= \(bind: from) AND g.granted_at < \(bind: until)
            """
        let refunded: SQLQueryString = "COUNT(DISTINCT CASE WHEN c.state = 'refunded' THEN c.order_id END)"
        return try await store.read { sql in
            func rows(_ query: SQLQueryString) async throws -> [RefundRates.Row] {
                try await sql.rows(query).map { row in
                    RefundRates.Row(
                        key: try row.string("k"), delivered: try row.int64("delivered"), refunded: try row.int64("refunded"),
                        accounts: try row.optionalInt64("accounts"))
                }
            }
            let byProduct = try await rows(
                "SELECT c.product_id AS k, COUNT(DISTINCT c.order_id) AS delivered, \(refunded) AS refunded, NULL AS accounts FROM (\(cohort)) c GROUP BY c.product_id ORDER BY c.product_id"
            )
            let byAccount = try await rows(
                """
                SELECT c.account_id AS k, COUNT(DISTINCT c.order_id) AS delivered, \(refunded) AS refunded, NULL AS accounts FROM (\(cohort)) c
                GROUP BY c.account_id HAVING \(refunded) > 0 ORDER BY refunded DESC, c.account_id LIMIT \(literal: limit)
                """)
            let byAppleAccount = try await rows(
                """
                SELECT t.app_transaction_id AS k, COUNT(DISTINCT c.order_id) AS delivered, \(refunded) AS refunded,
                       COUNT(DISTINCT c.account_id) AS accounts
                FROM (\(cohort)) c JOIN transactions t ON t.order_id = c.order_id
                WHERE t.app_transaction_id IS NOT NULL
                GROUP BY t.app_transaction_id HAVING \(refunded) > 0 ORDER BY refunded DESC, t.app_transaction_id LIMIT \(literal: limit)
                """)
            return RefundRates(from: from, until: until, byProduct: byProduct, byAccount: byAccount, byAppleAccount: byAppleAccount)
        }
    }
}
