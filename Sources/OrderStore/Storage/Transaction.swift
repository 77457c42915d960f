import SQLKit

extension SQLDatabase {
    /// Ends the open transaction without its changes, also when the calling task was
    /// cancelled. SQLite's driver refuses to run a statement in a cancelled task, so a
    /// plain ROLLBACK there would leave the transaction open on the store's only
    /// connection, and every later write would fail with "cannot start a transaction
    /// within a transaction". A new task does not inherit the cancellation.
    func rollbackEvenIfCancelled() async {
        let sql = self
        await Task { try? await sql.raw("ROLLBACK").run() }.value
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
