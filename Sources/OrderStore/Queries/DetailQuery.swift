import Foundation
import OrderDomain
import PostgresNIO
import SQLKit

/// The reads of one subject's detail (an order, a subscription, an account): its parts, each
/// one table's rows about the subject, written once with `$1` for the subject's id and `$2`
/// for the limit.
///
/// SQLite runs the parts one after another: it is in the process, a statement costs no
/// round trip. PostgreSQL runs them as one statement that aggregates each part's rows into
/// a JSON array: one round trip instead of one per table (ten for an order), and every part
/// read from the same snapshot. The statement is prepared once per connection (unless a
/// transaction pooler is in between): planning its ten subqueries took 0.8 ms a call at
/// 10,000,000 orders, longer than running them.
enum DetailQuery {
    /// One part's rows, with `$1` and `$2` (it may order and limit them itself), and how they
    /// are ordered in the answer.
    struct Select: Sendable {
        let rows: String
        let order: String

        init(_ rows: String, order: String) {
            self.rows = rows
            self.order = order
        }
    }

    /// The one statement PostgreSQL runs: a row with a JSON array per part, a column each,
    /// named by the part.
    static func postgresText<Read: DetailRead>(_ read: Read.Type) -> String {
        "SELECT "
            + Read.Part.allCases.map { part in
                let select = Read.select(part)
                return "(SELECT coalesce(json_agg(p ORDER BY \(select.order)), '[]')::text FROM (\(select.rows)) AS p) AS \(part.rawValue)"
            }.joined(separator: ", ")
    }

    /// The subject's rows, each part in its order.
    static func rows<Read: DetailRead>(_ read: Read.Type, on db: Database, id: String, limit: Int) async throws -> DetailRows<Read> {
        var rows: [Read.Part: [Row]] = [:]
        switch db.driver {
        case .sqlite:
            for part in Read.Part.allCases {
                // The part's SQL is written once, when its statement is first made.
                let statement = NumberedStatement.named("\(Read.statementName).\(part.rawValue)") {
                    let select = Read.select(part)
                    return "SELECT * FROM (\(select.rows)) AS p ORDER BY \(select.order)"
                }
                rows[part] = try await db.sql.rows(statement.bound([id, limit]))
            }
        case .postgres:
            guard let columns = try await db.rows(PreparedDetail<Read>(id: id, limit: limit)).first else {
                throw StoreError.corrupt("PostgreSQL answered the \(Read.statementName) statement with no row")
            }
            let decoder = JSONDecoder()
            for part in Read.Part.allCases {
                let json = try columns.string(part.rawValue)
                rows[part] = try decoder.decode([JSONRow].self, from: Data(json.utf8)).map { Row(raw: $0) }
            }
        }
        return DetailRows(parts: rows)
    }
}

/// A detail's rows by part. Every part was read (the parts are the read's cases), so a part
/// with no rows is an empty list.
struct DetailRows<Read: DetailRead> {
    let parts: [Read.Part: [Row]]

    /// The part's rows as records, in the part's order.
    func all<T>(_ part: Read.Part, _ record: (Row) throws -> T) throws -> [T] {
        try (parts[part] ?? []).map(record)
    }

    /// The part's first row as a record; nil when it has none.
    func first<T>(_ part: Read.Part, _ record: (Row) throws -> T) throws -> T? {
        try parts[part]?.first.map(record)
    }
}

/// One kind of detail read: its parts (a case each, whose name is the key of its rows and
/// the column of PostgreSQL's answer), each part's rows, and the name PostgreSQL prepares
/// the statement under. `select` is a switch over the parts, so no part goes unread.
protocol DetailRead {
    associatedtype Part: RawRepresentable, CaseIterable, Hashable, Sendable where Part.RawValue == String
    static var statementName: String { get }
    static func select(_ part: Part) -> DetailQuery.Select
}

/// A detail read's one statement, prepared once per PostgreSQL connection.
struct PreparedDetail<Read: DetailRead>: IdAndLimitStatement {
    static var name: String { Read.statementName }
    static var sql: String { DetailQuery.postgresText(Read.self) }

    var id: String
    var limit: Int
}
