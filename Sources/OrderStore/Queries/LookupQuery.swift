import OrderDomain
import PostgresKit
import PostgresNIO
import SQLKit

/// The statement behind `OrderStore.lookup`, written once: a `UNION ALL` of one index probe
/// per kind of id, ranked by `via` (order id, the order's transaction, a transaction it
/// claimed, original transaction, account, then the rarely typed kinds), newest first
/// within a kind.
enum LookupQuery {
    /// The statement's text for `kinds`, with `$1` for the id and `$2` for the limit.
    static func text(kinds: [IdKind]) -> String {
        let (id, limit) = ("$1", "$2")
        let columns = Order.Column.list
        /// The orders `where` picks, newest first, at most `limit` of them.
        func newest(_ via: Int, _ name: String, where condition: String) -> String {
            """
            SELECT * FROM (SELECT \(via) AS via, \(columns) FROM orders WHERE \(condition)
                           ORDER BY created_at DESC, order_id DESC LIMIT \(limit)) AS \(name)
            """
        }
        var parts: [String] = []
        for kind in kinds {
            switch kind {
            case .any: continue  // never asked as such: a lookup asks its rounds' own kinds (IdKind.rounds)
            case .order: parts.append("SELECT 0 AS via, \(columns) FROM orders WHERE order_id = \(id)")
            case .transaction:
                parts.append("SELECT 1 AS via, \(columns) FROM orders WHERE transaction_id = \(id)")
                parts.append("SELECT 2 AS via, \(columns) FROM orders WHERE order_id = (SELECT order_id FROM transactions WHERE transaction_id = \(id))")
            case .originalTransaction: parts.append(newest(3, "by_original", where: "original_transaction_id = \(id)"))
            case .account: parts.append(newest(4, "by_account", where: "account_id = \(id)"))
            case .appTransaction:
                // Every game account the Apple Account bought with: the orders its transactions paid.
                parts.append(
                    newest(
                        5, "by_app_transaction",
                        where: "order_id IN (SELECT order_id FROM transactions WHERE app_transaction_id = \(id) AND order_id IS NOT NULL)"))
            case .purchaseToken:
                // The orders that submitted the token (one still waiting for Google among
                // them) and those claiming a purchase paid under it (a subscription's renewals).
                parts.append(
                    newest(
                        6, "by_purchase_token",
                        where: """
                            order_id IN (SELECT order_id FROM receipt_submissions WHERE purchase_token = \(id)
                                         UNION SELECT order_id FROM transactions WHERE purchase_token = \(id) AND order_id IS NOT NULL)
                            """))
            case .obfuscatedAccount:
                // Tokens first, then their transactions: written as a join, SQLite without
                // statistics walked every transaction with an order (0.28 s at 1M orders).
                parts.append(
                    newest(
                        7, "by_obfuscated_account",
                        where: """
                            order_id IN (SELECT order_id FROM transactions WHERE order_id IS NOT NULL AND purchase_token IN
                                           (SELECT purchase_token FROM play_purchases WHERE obfuscated_account_id = \(id)))
                            """))
            }
        }
        return parts.joined(separator: " UNION ALL ")
    }

    /// The ranked statement for `kinds`.
    static func ranked(kinds: [IdKind]) -> String {
        text(kinds: kinds) + " ORDER BY via, created_at DESC, order_id DESC"
    }

    /// The statement with both values bound, for SQLKit on either backend.
    static func bound(kinds: [IdKind], id: String, limit: Int) -> SQLQueryString {
        NumberedStatement.named("lookup \(kinds.map(\.rawValue))") { ranked(kinds: kinds) }.bound([id, limit])
    }
}

/// The everyday round of an any-kind lookup as a PostgreSQL prepared statement: parsed and
/// planned once per connection.
struct EverydayIdLookup: IdAndLimitStatement {
    static let name = "iapdesk_lookup_everyday_v1"
    static let sql = LookupQuery.ranked(kinds: IdKind.everyday)

    var id: String
    var limit: Int
}

/// The purchase-token round, prepared likewise: asked when the everyday one found nothing.
struct TokenIdLookup: IdAndLimitStatement {
    static let name = "iapdesk_lookup_token_v1"
    static let sql = LookupQuery.ranked(kinds: IdKind.token)

    var id: String
    var limit: Int
}

/// The rare round, prepared likewise: asked when the token round found nothing.
struct RareIdLookup: IdAndLimitStatement {
    static let name = "iapdesk_lookup_rare_v2"
    static let sql = LookupQuery.ranked(kinds: IdKind.rare)

    var id: String
    var limit: Int
}
