import Logging
import NIOConcurrencyHelpers
import NIOCore
import OrderDomain
import SQLKit

/// A PostgreSQL connection's statements with a deadline. A statement that has no answer
/// in time fails with ``StoreError/unavailable(_:)`` and its connection is closed, so the
/// pool never hands it out again and the server ends the statement with the session.
///
/// Why not a cancelled task: PostgresNIO's queries do not heed cancellation, and a query
/// written to a connection the server just closed may never be answered at all (one such
/// request hung for ten minutes after a restart). Racing the driver's future
/// against a timer on the connection's event loop ends the call however the driver behaves.
///
/// Once a statement missed its deadline, every later one on the connection fails at once:
/// the connection is being closed, and a statement written to it now would only wait out
/// a deadline of its own. (A PostgreSQL failover showed it: the ROLLBACK after a statement
/// the killed primary never answered took a second 8 s, so a request answered 503 after
/// twice its deadline.)
struct DeadlineSQLDatabase: SQLDatabase {
    let database: any SQLDatabase
    /// The statement's own limit; a ``CallBudget`` may make it shorter.
    let deadline: Duration
    /// Set once a statement missed its deadline; shared by every copy of this value.
    private let expired = NIOLockedValueBox(false)
    /// Called once when a statement missed its deadline: closes the connection.
    private let expire: @Sendable () -> Void

    init(database: any SQLDatabase, deadline: Duration, expire: @escaping @Sendable () -> Void) {
        self.database = database
        self.deadline = deadline
        self.expire = expire
    }

    /// A statement missed its deadline: the connection is being closed (which the driver
    /// reports a moment later), so the pool must not hand it out meanwhile.
    var hasExpired: Bool { expired.withLockedValue { $0 } }

    var logger: Logger { database.logger }
    var eventLoop: any EventLoop { database.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { database.version }
    var dialect: any SQLDialect { database.dialect }
    var queryLogLevel: Logger.Level? { database.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        let promise = eventLoop.makePromise(of: Void.self)
        do {
            let answer = try startDeadline { promise.completeWith($0) }
            database.execute(sql: query, onRow).whenComplete(answer)
        } catch {
            promise.fail(error)
        }
        return promise.futureResult
    }

    /// A call to the driver made beside SQLKit (a prepared statement) under the same
    /// deadline, with the same end for a connection that misses it. The call runs apart, so
    /// that one the driver never answers is left behind.
    func run<T: Sendable>(_ call: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (settled: CheckedContinuation<T, any Error>) in
            do {
                let answer = try startDeadline { settled.resume(with: $0) }
                Task {
                    do { answer(.success(try await call())) } catch { answer(.failure(error)) }
                }
            } catch {
                settled.resume(throwing: error)
            }
        }
    }

    /// Starts one call's deadline: `settle` gets the first of the call's answer (given to the
    /// function returned) and the deadline's failure; the other is dropped. A missed deadline
    /// expires the connection.
    private func startDeadline<T: Sendable>(
        _ settle: @escaping @Sendable (Result<T, any Error>) -> Void
    ) throws -> @Sendable (Result<T, any Error>) -> Void {
        guard !hasExpired else { throw StoreError.unavailable("the connection was closed after a statement missed its deadline") }
        let limit = try CallBudget.remaining(upTo: deadline)
        let settled = NIOLockedValueBox(false)
        let first: @Sendable () -> Bool = {
            settled.withLockedValue { done in
                defer { done = true }; return !done
            }
        }
        let timer = eventLoop.scheduleTask(in: TimeAmount(limit)) { [expire, expired] in
            guard first() else { return }
            expired.withLockedValue { $0 = true }
            settle(.failure(StoreError.unavailable("PostgreSQL did not answer within \(limit)")))
            expire()
        }
        return { result in
            guard first() else { return }
            timer.cancel()
            settle(result)
        }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await execute(sql: query, onRow).get()
    }
}
