import Logging
import OrderDomain
import PostgresNIO

/// Wakes this process's workers when another process commits a due job, on PostgreSQL:
/// a write that makes a job due sends the notification inside its transaction (`NOTIFY
/// iapdesk_jobs`, or `pg_notify` in the statement that writes its jobs; the server delivers
/// it at the commit, never for a rollback), and ``listenForJobs(logger:)``
/// turns each notification into ``OrderStore/jobsDue``. Without it, a job written by an
/// intake-only `serve` or an operator's console waited for the worker's idle poll.
enum JobListener {
    static let channel = "iapdesk_jobs"
    static let notify = "NOTIFY \(channel)"

    /// The same notification sent from inside a statement, once if `owed` (a data-modifying
    /// CTE's name) wrote any row.
    static func told(byRowsOf owed: String) -> String { "SELECT pg_notify('\(channel)', '') FROM \(owed) LIMIT 1" }
}

extension OrderStore {
    /// Listens for jobs other processes make due, until the task is cancelled. A
    /// connection of its own, outside the pool; when it drops (a database restart) it is
    /// opened again a second later, and the workers are woken once in case a notification
    /// was missed meanwhile. Returns at once on SQLite, where one process writes, and behind
    /// a transaction pooler, which cannot carry a LISTEN.
    public func listenForJobs(logger: Logger) async {
        guard case .postgres = location else { return }
        // A transaction pooler hands a LISTEN to a server connection that serves others next:
        // nothing would be heard, and the workers' idle poll is what finds the jobs.
        guard !location.behindTransactionPooler else {
            logger.info("behind a transaction pooler: no LISTEN for other processes' jobs; the workers' idle poll finds them")
            return
        }
        var failing = false
        while !Task.isCancelled {
            do {
                let db = try await Database.open(location, deadline: settings.databaseDeadline)
                guard case .postgres(let connection) = db.driver else { return }
                do {
                    // Cancelling closes the connection, which ends the wait for the next one.
                    try await withTaskCancellationHandler {
                        let notifications = try await connection.listen(JobListener.channel)
                        if failing { logger.info("listening for jobs again") }
                        failing = false
                        jobsDue.notify()  // what was committed while nobody listened
                        for try await _ in notifications { jobsDue.notify() }
                    } onCancel: {
                        _ = connection.close() as EventLoopFuture<Void>
                    }
                } catch {
                    await db.close()
                    throw error
                }
                await db.close()
            } catch {
                if Task.isCancelled { return }
                if !failing {
                    logger.warning("listening for jobs failed; the idle poll finds them meanwhile", metadata: ["error": "\(DatabaseErrorText.readable(error))"])
                }
                failing = true
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }
}
