import Foundation
import PostgresNIO
import SQLKit

/// The reads of one subject's detail (an order, a subscription, an account): named parts, each one
/// table's rows about the subject, written once with `$1` for the subject's id and `$2`
/// for the limit.
///
/// SQLite runs the parts one after another: it is in the process, a statement costs no
/// round trip. PostgreSQL runs them as one statement that aggregates each part's rows into
/// a JSON array: one round trip instead of one per table (ten for an order), and every part
/// read from the same snapshot. The statement is prepared once per connection (unless a
/// transaction pooler is in between): planning its ten subqueries took 0.8 ms a call at
/// 10,000,000 orders, longer than running them.
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

    /// The subject's rows, each part in its order, by the part's name.
    static func rows<Read: DetailRead>(_ read: Read.Type, on db: Database, id: String, limit: Int) async throws -> DetailRows {
        var rows: [String: [Row]] = [:]
        switch db.driver {
        case .sqlite:
            for part in Read.query.parts {
                rows[part.name] = try await db.sql.rows(
                    NumberedStatement.named("\(Read.statementName).\(part.name)") { "SELECT * FROM (\(part.select)) AS p ORDER BY \(part.order)" }
                        .bound([id, limit]))
            }
        case .postgres:
            guard let columns = try await db.rows(PreparedDetail<Read>(id: id, limit: limit)).first else {
                throw StoreError.corrupt("PostgreSQL answered the \(Read.statementName) statement with no row")
            }
            let decoder = JSONDecoder()
            for part in Read.query.parts {
                let json = try columns.string(part.name)
                rows[part.name] = try decoder.decode([JSONRow].self, from: Data(json.utf8)).map { Row(raw: $0) }
            }
        }
        return DetailRows(parts: rows)
    }
}

/// A detail's rows by part. A part its query does not have is a mistake in the code, thrown
/// rather than read as no rows.
struct DetailRows {
    let parts: [String: [Row]]

    /// The part's rows as records, in the part's order.
    func all<T>(_ part: String, _ record: (Row) throws -> T) throws -> [T] {
        try rows(part).map(record)
    }

    /// The part's first row as a record; nil when it has none.
    func first<T>(_ part: String, _ record: (Row) throws -> T) throws -> T? {
        try rows(part).first.map(record)
    }

    private func rows(_ part: String) throws -> [Row] {
        guard let rows = parts[part] else { throw StoreError.corrupt("the detail's query has no part \(part)") }
        return rows
    }
}

/// One kind of detail read: its parts, and the name PostgreSQL prepares them under.
protocol DetailRead {
    static var statementName: String { get }
    static var query: DetailQuery { get }
}

extension DetailRead {
    typealias Part = DetailQuery.Part
}

/// A detail read's one statement, prepared once per PostgreSQL connection.
struct PreparedDetail<Read: DetailRead>: IdAndLimitStatement {
    static var name: String { Read.statementName }
    static var sql: String { Read.query.postgresText }

    var id: String
    var limit: Int
}
