import Logging
import NIOCore
import OrderDomain
import PostgresNIO
import SQLKit

/// A value a store statement binds: the store's columns hold text and integers.
enum StatementValue: Sendable {
    case text(String?)
    case integer(Int64?)

    var encodable: any Encodable & Sendable {
        switch self {
        case .text(let text): text
        case .integer(let integer): integer
        }
    }
}

/// A statement written once with PostgreSQL's placeholders (`$1`, `$2`, …): PostgreSQL
/// prepares it once per connection (parsed and planned on first use, then only bound and
/// run); elsewhere its text is bound as any statement (``NumberedStatement``). `values`
/// match ``PostgresPreparedStatement/bindingDataTypes``, one per placeholder.
protocol StoreStatement: PostgresPreparedStatement where Row == PostgresRow {
    var values: [StatementValue] { get }
}

extension StoreStatement {
    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings()
        for value in values {
            switch value {
            case .text(let text): try bindings.append(text)
            case .integer(let integer): try bindings.append(integer)
            }
        }
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }

    /// The statement with its values bound, for SQLKit on either backend.
    var bound: SQLQueryString { NumberedStatement.named(Self.name) { Self.sql }.bound(values.map(\.encodable)) }
}

/// A statement that takes an id as `$1` and a limit as `$2`: the any-id lookup and the
/// detail screens.
protocol IdAndLimitStatement: StoreStatement {
    var id: String { get }
    var limit: Int { get }
}

extension IdAndLimitStatement {
    static var bindingDataTypes: [PostgresDataType] { [.text, .int8] }
    var values: [StatementValue] { [.text(id), .integer(Int64(limit))] }
}

extension Database {
    /// A statement's rows: prepared once on a PostgreSQL connection reached straight; the
    /// same text with its values bound otherwise (SQLite, or a transaction pooler, where the
    /// next call may find another server connection that never prepared it).
    func rows<Statement: StoreStatement>(_ statement: Statement) async throws -> [Row] {
        guard prepares, case .postgres(let connection) = driver else { return try await sql.rows(statement.bound) }
        return try await rows(statement, on: connection)
    }

    /// A prepared statement's rows, read through the store's `Row` accessors, under the
    /// statement deadline of every other statement (``DeadlineSQLDatabase``): without an
    /// answer in time the call fails as unavailable and the connection is closed and never
    /// handed out again, whatever the driver's own call does after a server restart.
    private func rows<Statement: StoreStatement>(_ statement: Statement, on connection: PostgresConnection) async throws -> [Row] {
        let execute: @Sendable () async throws -> [PostgresRow] = { [logger] in
            var rows: [PostgresRow] = []
            for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
            return rows
        }
        guard let bounded = sql as? DeadlineSQLDatabase else { return try await execute().map(Row.init(postgres:)) }
        return try await bounded.run(execute).map(Row.init(postgres:))
    }
}
