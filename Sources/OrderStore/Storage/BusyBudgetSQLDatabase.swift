import Logging
import NIOConcurrencyHelpers
import NIOCore
import OrderDomain
import SQLKit

/// A SQLite connection whose waits for another process's write lock (`busy_timeout`)
/// follow the call's deadline: the sooner of the store's `deadline_seconds` and the calling
/// task's ``CallBudget``. SQLite runs in this process, so waiting on a lock another process
/// holds is the one way its statements wait; a statement whose budget is spent is not even
/// tried, as on PostgreSQL.
///
/// Setting `busy_timeout` is a statement of its own, so it is set only when it must change:
/// when the timeout in force would outlast the budget, or fall short of it by more than
/// `slack`. It is set a `step` below the budget, so that the statements of one request,
/// whose budget shrinks as it goes, set it about once per `step` rather than each time.
struct BusyBudgetSQLDatabase: SQLDatabase {
    let database: any SQLDatabase
    /// The store's own limit (``StoreSettings/databaseDeadline``), set when the connection opens.
    let deadline: Duration
    /// The `busy_timeout` in force on this connection, shared by both views of it.
    let inForce: NIOLockedValueBox<Duration>
    /// False for the work that may rightly take long (migrations, a bulk load): it waits the
    /// whole `deadline`, whatever budget the calling task has.
    let followsBudget: Bool
    static let step = Duration.milliseconds(250)
    static let slack = Duration.milliseconds(500)

    init(database: any SQLDatabase, deadline: Duration) {
        self.init(database: database, deadline: deadline, inForce: NIOLockedValueBox(deadline), followsBudget: true)
    }

    private init(database: any SQLDatabase, deadline: Duration, inForce: NIOLockedValueBox<Duration>, followsBudget: Bool) {
        self.database = database
        self.deadline = deadline
        self.inForce = inForce
        self.followsBudget = followsBudget
    }

    /// The same connection for work that waits the whole deadline, whatever the caller's budget.
    var ignoringBudget: BusyBudgetSQLDatabase {
        BusyBudgetSQLDatabase(database: database, deadline: deadline, inForce: inForce, followsBudget: false)
    }

    var logger: Logger { database.logger }
    var eventLoop: any EventLoop { database.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { database.version }
    var dialect: any SQLDialect { database.dialect }
    var queryLogLevel: Logger.Level? { database.queryLogLevel }

    /// The statement that sets the connection's busy wait.
    static func pragma(_ timeout: Duration) -> SQLQueryString {
        let milliseconds = max(1, Int(timeout / .milliseconds(1)))
        return SQLQueryString("PRAGMA busy_timeout = " + String(milliseconds))
    }

    /// The timeout to set before the next statement, or nil when the one in force fits.
    func timeoutToSet() throws -> Duration? {
        let budget = followsBudget ? try CallBudget.remaining(upTo: deadline) : deadline
        return inForce.withLockedValue { current in
            guard current > budget || current < budget - Self.slack else { return nil }
            let wanted = budget < Self.slack ? budget : budget - Self.step
            current = wanted
            return wanted
        }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        let timeout: Duration?
        do {
            timeout = try timeoutToSet()
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
        guard let timeout else { return database.execute(sql: query, onRow) }
        return database.execute(sql: Self.pragma(timeout)) { _ in }.flatMap { [database] in database.execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        if let timeout = try timeoutToSet() { try await database.execute(sql: Self.pragma(timeout)) { _ in } }
        try await database.execute(sql: query, onRow)
    }
}
