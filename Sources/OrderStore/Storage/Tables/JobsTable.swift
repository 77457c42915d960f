import OrderDomain
import SQLKit

/// The jobs table: enqueued inside the write that makes the work necessary, so the work
/// and its reason commit together (a receipt stored is a verification owed).
extension WriteTransaction {
    /// Makes sure the job for `work` is due by `dueAt`: a new job, or an existing
    /// one brought forward (never pushed back; a dead one comes back to life). A job a
    /// worker holds right now also remembers it is owed again, so that worker's finish
    /// keeps it instead of deleting it: work that arrived meanwhile is never dropped.
    func enqueue(_ work: JobWork, dueAt: Millis) async throws {
        if dueAt <= now { madeJobDue = true }
        try await upsertJobs([(work, dueAt)])
    }

    /// ``enqueue(_:dueAt:)`` written at commit, with the transaction's other owed jobs in one
    /// statement: a group commit of receipts owes a verification for each, one round trip
    /// for all of them where it was one each. For work nothing in the transaction reads
    /// back before it commits.
    func enqueueAtCommit(_ work: JobWork, dueAt: Millis) {
        if dueAt <= now { madeJobDue = true }
        owedJobs[work] = min(owedJobs[work] ?? dueAt, dueAt)
    }

    /// The owed jobs, in the order of their key (the lock order concurrent commits share).
    func writeOwedJobs() async throws {
        guard !owedJobs.isEmpty else { return }
        let owed = owedJobs.sorted { ($0.key.kind.rawValue, $0.key.subject) < ($1.key.kind.rawValue, $1.key.subject) }
        owedJobs = [:]
        let chunks = owed.chunks(of: 100)
        for (index, chunk) in chunks.enumerated() {
            // On PostgreSQL the last of them also tells other processes' workers (the
            // notification `flush` would send): one round trip less per commit.
            let tell = index == chunks.count - 1 && madeJobDue && !toldJobsDue && database.dialect == .postgres
            try await upsertJobs(chunk.map { ($0.key, $0.value) }, tellingWorkers: tell)
            if tell { toldJobsDue = true }
        }
    }

    /// A new job for each work, or its job brought forward (see ``enqueue(_:dueAt:)``);
    /// the works are distinct. `tellingWorkers` (PostgreSQL): the statement also sends the
    /// workers' notification, delivered at the commit as `NOTIFY` would be.
    private func upsertJobs(_ jobs: [(work: JobWork, dueAt: Millis)], tellingWorkers: Bool = false) async throws {
        let rows: [SQLQueryString] = jobs.map { "(\(bind: $0.work.kind.rawValue), \(bind: $0.work.subject), \(bind: $0.dueAt), \(bind: now))" }
        let upsert: SQLQueryString = "INSERT INTO jobs (kind, subject, due_at, created_at) VALUES \(rows.joined(separator: ", "))" + Self.owingAgain
        guard tellingWorkers else {
            try await sql.raw(upsert).run()
            return
        }
        try await sql.raw("WITH owed AS (" + upsert + " RETURNING 1) \(unsafeRaw: JobListener.told(byRowsOf: "owed"))").run()
    }

    /// What makes an insert into `jobs` an enqueue (``enqueue(_:dueAt:)``): an existing job
    /// is brought forward, never pushed back, a dead one lives again, and one a worker holds
    /// remembers it is owed again.
    static let owingAgain: SQLQueryString = """
         ON CONFLICT (kind, subject) DO UPDATE SET
          due_at = CASE WHEN jobs.dead_at IS NOT NULL OR excluded.due_at < jobs.due_at THEN excluded.due_at ELSE jobs.due_at END,
          dead_at = NULL,
          again_at = CASE WHEN jobs.lease_owner IS NOT NULL THEN excluded.due_at ELSE jobs.again_at END
        """

    /// Ends the leased job `fence` picks out: deleted, unless it was owed again since it was
    /// claimed (`again_at`), then kept, due then. Returns whether the fence matched.
    ///
    /// The delete comes first and only takes a job not owed again: on PostgreSQL an enqueue
    /// committing between an "owed again?" check and an unconditional delete would be
    /// deleted with the job (READ COMMITTED), and its notification left pending for good.
    /// This way a concurrent enqueue either waits for the delete and inserts a new job, or
    /// commits first and the delete re-checks the row it set and leaves it.
    func finishLeasedJob(_ fence: SQLQueryString) async throws -> Bool {
        if try await sql.row("DELETE FROM jobs WHERE \(fence) AND again_at IS NULL RETURNING id") != nil { return true }
        return try await sql.row(
            """
            UPDATE jobs SET due_at = again_at, again_at = NULL, attempts = 0, lease_owner = NULL, lease_until = NULL, last_error = NULL
            WHERE \(fence) AND again_at IS NOT NULL RETURNING id
            """) != nil
    }
}

extension Job: StoredRecord {
    enum Column: String, TableColumn {
        case id, kind, subject, dueAt = "due_at", attempts, leaseOwner = "lease_owner", leaseUntil = "lease_until", lastError = "last_error",
            deadAt = "dead_at"
    }

    init(_ row: Columns<Column>) throws {
        let id = try row.int64(.id)
        let kind = try row.value(.kind, as: JobKind.self)
        let subject = try row.string(.subject)
        let dueAt = try row.int64(.dueAt)
        let attempts = try row.int64(.attempts)
        let leaseOwner = try row.optionalString(.leaseOwner)
        let leaseUntil = try row.optionalInt64(.leaseUntil)
        let lastError = try row.optionalString(.lastError)
        let deadAt = try row.optionalInt64(.deadAt)
        self.init(
            id: id, kind: kind, subject: subject, dueAt: dueAt, attempts: attempts, leaseOwner: leaseOwner, leaseUntil: leaseUntil, lastError: lastError,
            deadAt: deadAt)
    }
}
