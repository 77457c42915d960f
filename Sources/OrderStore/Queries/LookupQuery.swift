import PostgresKit
import PostgresNIO
import SQLKit

/// The statement behind `OrderStore.lookup`, written once: a `UNION ALL` of one index probe
/// per kind of id, ranked by `via` (order id, the order's transaction, a transaction it
/// claimed, original transaction, account), newest first within a kind.
enum LookupQuery {
    /// The statement's text, with `$1` for the id and `$2` for the limit. `appTransaction`
    /// false leaves out the appTransactionId probe of an any-kind lookup (SQLite asks it
    /// only when nothing else matched).
    static func text(kind: IdKind, appTransaction: Bool = true) -> String {
        let (id, limit) = ("$1", "$2")
        let columns = Order.columnList
        var parts: [String] = []
        if kind.includes(.order) { parts.append("SELECT 0 AS via, \(columns) FROM orders WHERE order_id = \(id)") }
        if kind.includes(.transaction) {
            parts.append("SELECT 1 AS via, \(columns) FROM orders WHERE transaction_id = \(id)")
            parts.append("SELECT 2 AS via, \(columns) FROM orders WHERE order_id = (SELECT order_id FROM transactions WHERE transaction_id = \(id))")
        }
        if kind.includes(.originalTransaction) {
            parts.append(
                """
                SELECT * FROM (SELECT 3 AS via, \(columns) FROM orders WHERE original_transaction_id = \(id)
                               ORDER BY created_at DESC, order_id DESC LIMIT \(limit)) AS by_original
                """)
        }
        if kind.includes(.account) {
            parts.append(
                """
                SELECT * FROM (SELECT 4 AS via, \(columns) FROM orders WHERE account_id = \(id)
                               ORDER BY created_at DESC, order_id DESC LIMIT \(limit)) AS by_account
                """)
        }
        if kind.includes(.appTransaction), appTransaction {
            // Every game account the Apple Account bought with: the orders its transactions paid.
            parts.append(
                """
                SELECT * FROM (SELECT 5 AS via, \(columns) FROM orders WHERE order_id IN
                                 (SELECT order_id FROM transactions WHERE app_transaction_id = \(id) AND order_id IS NOT NULL)
                               ORDER BY created_at DESC, order_id DESC LIMIT \(limit)) AS by_app_transaction
                """)
        }
        return parts.joined(separator: " UNION ALL ") + " ORDER BY via, created_at DESC, order_id DESC"
    }

    /// The statement with both values bound, for SQLKit on either backend.
    static func bound(kind: IdKind, id: String, limit: Int, appTransaction: Bool = true) -> SQLQueryString {
        SQLQueryString(numbered: text(kind: kind, appTransaction: appTransaction), [id, limit])
    }
}

/// The any-kind lookup as a PostgreSQL prepared statement: parsed and planned once per
/// connection.
struct AnyIdLookup: IdAndLimitStatement {
    static let name = "iapdesk_lookup_any_v2"
    static let sql = LookupQuery.text(kind: .any)

    var id: String
    var limit: Int
}
