import Logging
import SQLKit
import PostgresNIO
import SQLiteNIO

/// A value in a bulk row: text, integer or NULL, bound straight into the driver.
enum BulkValue: Sendable {
    case text(String)
    case int(Int64)
    case null
}

/// What can stand in a bulk row literal.
protocol BulkConvertible: Sendable {
    var bulk: BulkValue { get }
}

extension String: BulkConvertible { var bulk: BulkValue { .text(self) } }
extension Int64: BulkConvertible { var bulk: BulkValue { .int(self) } }
extension Int: BulkConvertible { var bulk: BulkValue { .int(Int64(self)) } }
extension Optional: BulkConvertible where Wrapped: BulkConvertible {
    var bulk: BulkValue { self?.bulk ?? .null }
}

/// Multi-row inserts for seeding, bound directly on the driver connection. SQLKit's
/// general path encodes every value through `Encodable`, which dominated a profile of
/// seeding; this path is what makes a million orders fit in a minute. Operations never
/// use it.
struct BulkWriter: Sendable {
    let driver: Database.Driver
    /// SQLite allows 32,766 bound values per statement; PostgreSQL 65,535.
    let maxBinds = 30_000

    func insert(into table: String, columns: [String], rows: [[any BulkConvertible]]) async throws {
        guard !rows.isEmpty else { return }
        let perStatement = max(1, maxBinds / columns.count)
        var start = 0
        while start < rows.count {
            let chunk = rows[start..<min(start + perStatement, rows.count)]
            try await run(table: table, columns: columns, rows: chunk)
            start += perStatement
        }
    }

    private func run(table: String, columns: [String], rows: ArraySlice<[any BulkConvertible]>) async throws {
        let head = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
        switch driver {
        case .sqlite(let connection):
            let tuple = "(" + Array(repeating: "?", count: columns.count).joined(separator: ",") + ")"
            let sql = head + Array(repeating: tuple, count: rows.count).joined(separator: ",")
            var binds: [SQLiteData] = []
            binds.reserveCapacity(rows.count * columns.count)
            for row in rows {
                for value in row {
                    switch value.bulk {
                    case .text(let text): binds.append(.text(text))
                    case .int(let int): binds.append(.integer(Int(int)))
                    case .null: binds.append(.null)
                    }
                }
            }
            _ = try await connection.query(sql, binds)
        case .postgres(let connection):
            var sql = head
            var bindings = PostgresBindings(capacity: rows.count * columns.count)
            var n = 0
            for (r, row) in rows.enumerated() {
                sql += r == 0 ? "(" : ",("
                for (c, value) in row.enumerated() {
                    n += 1
                    sql += c == 0 ? "$\(n)" : ",$\(n)"
                    switch value.bulk {
                    case .text(let text): bindings.append(text)
                    case .int(let int): bindings.append(int)
                    case .null: bindings.appendNull()
                    }
                }
                sql += ")"
            }
            try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: Logger(label: "iapdesk.seed"))
        }
    }
}

/// Secondary indexes, dropped for a bulk load and built afterwards: one sorted build per
/// index is far cheaper than a million scattered inserts into each. Definitions are read
/// from the database's catalogue, so they always match what the migrations created.
/// Unique indexes stay: they are constraints (R7, R11), not speed-ups.
struct SecondaryIndexes {
    let definitions: [(name: String, sql: String)]

    static func read(_ sql: any SQLDatabase, dialect: Dialect) async throws -> SecondaryIndexes {
        let query: SQLQueryString = dialect == .sqlite
            ? "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%' ORDER BY name"
            : "SELECT indexname AS name, indexdef AS sql FROM pg_indexes WHERE schemaname = current_schema() AND indexdef NOT LIKE 'CREATE UNIQUE%' ORDER BY indexname"
        return SecondaryIndexes(definitions: try await sql.rows(query).map { (try $0.string("name"), try $0.string("sql")) })
    }

    func drop(_ sql: any SQLDatabase) async throws {
        for index in definitions { try await sql.raw("DROP INDEX \(ident: index.name)").run() }
    }

    func create(_ sql: any SQLDatabase) async throws {
        for index in definitions { try await sql.raw(SQLQueryString(index.sql)).run() }
    }
}
