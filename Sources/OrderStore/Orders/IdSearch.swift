import OrderDomain
import SQLKit

extension Orders {
    /// What `/` finds for a word an operator typed: the exact matches of ``lookup(_:kind:limit:)``
    /// first, then orders whose order id, transaction id, original transaction id or
    /// account id starts with the word. Each prefix is one bytewise index range read in id
    /// order and cut at `limit`, so a one-letter prefix over a million orders costs what a
    /// long one does. `kind` keeps both to one kind of id (`tid:`, `otid:`); without
    /// `prefix`, only exact matches (a subscription's own orders).
    public func search(_ text: String, kind: IdKind = .any, prefix: Bool = true, limit: Int = 50) async throws -> [Order] {
        var found = try await lookup(text, kind: kind, limit: limit)
        guard prefix, !text.isEmpty, found.count < limit else { return found }
        var seen = Set(found.map(\.orderId))
        // Every id of a valid UTF-8 string that starts with `text` sorts below `text`
        // followed by the last code point.
        let upper = text + "\u{10FFFF}"
        // Every text column compares by its bytes on both backends (migration 34), so a
        // prefix is one range of the column's own index whatever the database's locale.
        let ranges = kind.prefixColumns.map { column -> SQLQueryString in
            let key = SQLQueryString(column)
            return """
                SELECT \(unsafeRaw: Order.Column.list) FROM orders WHERE \(key) >= \(bind: text) AND \(key) < \(bind: upper)
                ORDER BY \(key) LIMIT \(literal: limit)
                """
        }
        try await store.read { sql in
            for range in ranges {
                for order in try await sql.rows(range).map(Order.init(row:)) where seen.insert(order.orderId).inserted {
                    found.append(order)
                    if found.count == limit { return }
                }
            }
        }
        return found
    }
}
