import Logging
import NIOCore
import SQLKit
import SQLiteKit
import SQLiteNIO

/// SQLKit over one SQLite connection, as SQLiteKit's own (`connection.sql()`), but handing
/// each row out as a ``SQLiteStoreRow``, whose values ``Row`` reads straight. Through SQLiteKit
/// every column is read through `Decodable` (a decoder, generic metadata and dynamic casts
/// per value): a profile of a million orders' lookups put a third of the time spent in
/// SQLite's calls there, and an account's lookup reads up to 50 rows of 23 columns.
struct SQLiteStoreDatabase: SQLDatabase {
    let connection: SQLiteConnection
    let queryLogLevel: Logger.Level? = nil
    private let encoder = SQLiteDataEncoder()

    init(_ connection: SQLiteConnection) { self.connection = connection }

    var eventLoop: any EventLoop { connection.eventLoop }
    var logger: Logger { connection.logger }
    var dialect: any SQLDialect { SQLiteDialect() }
    var version: (any SQLDatabaseReportedVersion)? { connection.sql().version }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        let (sql, values) = serialize(query)
        let binds: [SQLiteData]
        do {
            binds = try values.map { try encoder.encode($0) }
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
        return connection.query(sql, binds) { onRow(SQLiteStoreRow(row: $0)) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let (sql, values) = serialize(query)
        try await connection.query(sql, values.map { try encoder.encode($0) }) { onRow(SQLiteStoreRow(row: $0)) }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await closure(self)
    }
}

/// A SQLite row: its values for ``Row`` to read without decoding, and SQLiteKit's decoding
/// for everything else.
struct SQLiteStoreRow: SQLRow {
    let row: SQLiteRow

    private var decoding: any SQLRow { row.sql() }
    var allColumns: [String] { row.columns.map(\.name) }
    func contains(column: String) -> Bool { row.column(column) != nil }
    func decodeNil(column: String) throws -> Bool { try decoding.decodeNil(column: column) }
    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D { try decoding.decode(column: column, as: type) }
}
