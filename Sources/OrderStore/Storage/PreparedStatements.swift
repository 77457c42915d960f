import Logging
import NIOCore
import OrderDomain
import PostgresNIO
import SQLKit

/// A statement PostgreSQL prepares once per connection (parsed and planned on first use,
/// then only bound and run), taking an id as `$1` and a limit as `$2`: the any-id lookup
/// and the detail screens.
protocol IdAndLimitStatement: PostgresPreparedStatement where Row == PostgresRow {
    var id: String { get }
    var limit: Int { get }
}

extension IdAndLimitStatement {
    static var bindingDataTypes: [PostgresDataType] { [.text, .int8] }

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(id)
        bindings.append(Int64(limit))
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

extension Database {
    /// A statement's rows: prepared once on a PostgreSQL connection reached straight; the
    /// same text with its values bound otherwise (SQLite, or a transaction pooler, where the
    /// next call may find another server connection that never prepared it).
    func rows<Statement: IdAndLimitStatement>(_ statement: Statement) async throws -> [Row] {
        guard prepares, case .postgres(let connection) = driver else {
            return try await sql.rows(NumberedStatement.named(Statement.name) { Statement.sql }.bound([statement.id, statement.limit]))
        }
        return try await rows(statement, on: connection)
    }

    /// A prepared statement's rows, read through the store's `Row` accessors, within the
    /// statement deadline: a connection with no answer in time is closed, which fails the
    /// statement (the driver's own call cannot be cancelled; see ``DeadlineSQLDatabase``).
    private func rows(_ statement: some IdAndLimitStatement, on connection: PostgresConnection) async throws -> [Row] {
        let limit = try CallBudget.remaining(upTo: deadline)
        let timer = connection.eventLoop.scheduleTask(in: TimeAmount(limit)) { _ = connection.close() as EventLoopFuture<Void> }
        defer { timer.cancel() }
        var rows: [Row] = []
        for try await row in try await connection.execute(statement, logger: logger) { rows.append(Row(postgres: row)) }
        return rows
    }
}
