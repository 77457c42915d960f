import SQLKit

/// The jobs table: enqueued inside the write that makes the work necessary, so the work
/// and its reason commit together (a receipt stored is a verification owed).
extension WriteTransaction {
    /// Makes sure a `kind` job for `subject` is due by `dueAt`: a new job, or an existing
    /// one brought forward (never pushed back; a dead one comes back to life). A job a
    /// worker holds right now also remembers it is owed again, so that worker's finish
    /// keeps it instead of deleting it: work that arrived meanwhile is never dropped.
    func enqueue(_ kind: JobKind, subject: String, dueAt: Millis) async throws {
        if dueAt <= now { madeJobDue = true }
        try await sql.raw(
            """
            INSERT INTO jobs (kind, subject, due_at, created_at) VALUES (\(bind: kind.rawValue), \(bind: subject), \(bind: dueAt), \(bind: now))
            ON CONFLICT (kind, subject) DO UPDATE SET
              due_at = CASE WHEN jobs.dead_at IS NOT NULL OR excluded.due_at < jobs.due_at THEN excluded.due_at ELSE jobs.due_at END,
              dead_at = NULL,
              again_at = CASE WHEN jobs.lease_owner IS NOT NULL THEN excluded.due_at ELSE jobs.again_at END
            """
        ).run()
    }
}

extension Job {
    static let columns = "id, kind, subject, due_at, attempts, lease_owner, lease_until, last_error, dead_at"

    init(row: Row) throws {
        id = try row.int64("id")
        kind = try row.value("kind", as: JobKind.self)
        subject = try row.string("subject")
        dueAt = try row.int64("due_at")
        attempts = try row.int64("attempts")
        leaseOwner = try row.optionalString("lease_owner")
        leaseUntil = try row.optionalInt64("lease_until")
        lastError = try row.optionalString("last_error")
        deadAt = try row.optionalInt64("dead_at")
    }
}
