import Foundation
import SQLKit

/// A detail screen's reads (an order, a subscription, an account): named parts, each one
/// table's rows about the subject, written once with `$1` for the subject's id and `$2`
/// for the limit.
///
/// SQLite runs the parts one after another: it is in the process, a statement costs no
/// round trip. PostgreSQL runs them as one statement that aggregates each part's rows into
/// a JSON array: one round trip instead of one per table (ten for an order), and every part
/// read from the same snapshot.
struct DetailQuery: Sendable {
    struct Part: Sendable {
        /// The part's name: the key of its rows, and the column of PostgreSQL's answer.
        let name: String
        /// The part's rows, with `$1` and `$2`; it may order and limit them itself.
        let select: String
        /// How the part's rows are ordered in the answer.
        let order: String
    }

    let parts: [Part]

    /// The one statement PostgreSQL runs: a row with a JSON array per part.
    var postgresText: String {
        "SELECT "
            + parts.map { part in
                "(SELECT coalesce(json_agg(p ORDER BY \(part.order)), '[]')::text FROM (\(part.select)) AS p) AS \(part.name)"
            }.joined(separator: ", ")
    }

    /// Each part's rows, in its order, by its name.
    func rows(on db: Database, id: String, limit: Int) async throws -> [String: [Row]] {
        let values: [any Encodable & Sendable] = [id, limit]
        var rows: [String: [Row]] = [:]
        switch db.dialect {
        case .sqlite:
            for part in parts {
                rows[part.name] = try await db.sql.rows(SQLQueryString(numbered: "SELECT * FROM (\(part.select)) AS p ORDER BY \(part.order)", values))
            }
        case .postgres:
            guard let answer = try await db.sql.row(SQLQueryString(numbered: postgresText, values)) else { return [:] }
            for part in parts {
                let json = try answer.string(part.name)
                rows[part.name] = try JSONDecoder().decode([JSONRow].self, from: Data(json.utf8)).map { Row(raw: $0) }
            }
        }
        return rows
    }
}
