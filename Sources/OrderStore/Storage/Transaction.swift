import OrderDomain
import SQLKit

extension SQLDatabase {
    /// Ends the open transaction without its changes, also when the calling task was
    /// cancelled or its ``CallBudget`` is spent. SQLite's driver refuses to run a statement
    /// in a cancelled task, and a spent budget refuses every statement, so a plain ROLLBACK
    /// would leave the transaction open on the connection: on SQLite every later write fails
    /// with "cannot start a transaction within a transaction"; on PostgreSQL the next
    /// caller's BEGIN is only a warning and its COMMIT commits the half-done writes. A
    /// detached task inherits neither the cancellation nor the budget; the ROLLBACK still
    /// has the statement's own deadline, and a connection that misses it is closed.
    func rollbackEvenIfCancelled() async {
        let sql = self
        await Task.detached { try? await sql.raw("ROLLBACK").run() }.value
    }

    /// `body` in one write transaction: committed, or rolled back whole (even when the
    /// task was cancelled). The caller holds the store's lock.
    func writeTransaction<T>(_ dialect: Dialect, _ body: () async throws -> T) async throws -> T {
        try await raw(SQLQueryString(dialect.beginWrite)).run()
        do {
            let result = try await body()
            try await raw("COMMIT").run()
            return result
        } catch {
            await rollbackEvenIfCancelled()
            throw error
        }
    }

}
