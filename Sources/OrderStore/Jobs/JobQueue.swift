import OrderDomain
import SQLKit

extension OrderStore {
    /// The store's job queue: work owed (a verification, a notification to apply, events to
    /// push, a sweep), leased to workers on any machine and fenced so it is done once.
    public var jobs: JobQueue { JobQueue(store: self) }
}

/// A claimed job and the worker holding it: what finishing it is fenced by.
public struct JobLease: Sendable {
    public var job: Job
    public var owner: String

    public init(job: Job, owner: String) {
        self.job = job
        self.owner = owner
    }

    /// Only the owner of this very attempt may finish the job.
    var fence: SQLQueryString { "id = \(bind: job.id) AND lease_owner = \(bind: owner) AND attempts = \(bind: job.attempts)" }
}

/// The job queue of one store (``OrderStore/jobs``).
public struct JobQueue: Sendable {
    let store: OrderStore

    /// Takes up to `limit` due jobs for `owner` until `now + lease`. On PostgreSQL rows
    /// another worker is taking are skipped (`FOR UPDATE SKIP LOCKED`), so several workers
    /// on several machines share the queue without waiting on each other; on SQLite the
    /// claim is one writer's transaction. A job whose lease ran out (its worker died) is
    /// due again. Every claim counts an attempt: the fence a finish must match.
    /// `kinds` narrows the claim (the worker keeps applying notifications at full speed
    /// while it probes a failing Apple with one verification at a time). Verify jobs
    /// created before `verifyCreatedSince` are left alone (the demo's seeded backlog).
    public func claim(
        owner: String, limit: Int, lease: Millis, kinds: [JobKind]? = nil, verifyCreatedSince: Millis? = nil,
        now: Millis = .now()
    ) async throws -> [Job] {
        if kinds?.isEmpty == true { return [] }
        let skipLocked = store.dialect == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
        var kindFilter: SQLQueryString = kinds.map { " AND kind IN (\(binds: $0.map(\.rawValue)))" } ?? ""
        if let since = verifyCreatedSince {
            kindFilter = kindFilter + " AND (kind <> \(bind: JobKind.verify.rawValue) OR created_at >= \(bind: since))"
        }
        return try await store.write(as: .system, now: now) { tx in
            try await tx.sql.rows(
                """
                UPDATE jobs SET lease_owner = \(bind: owner), lease_until = \(bind: now + lease), attempts = attempts + 1, again_at = NULL
                WHERE id IN (SELECT id FROM jobs WHERE dead_at IS NULL AND due_at <= \(bind: now)\(kindFilter)
                               AND (lease_until IS NULL OR lease_until < \(bind: now))
                             ORDER BY due_at, id LIMIT \(literal: limit)\(unsafeRaw: skipLocked))
                RETURNING \(unsafeRaw: Job.Column.list)
                """
            ).map(Job.init(row:)).sorted { ($0.dueAt, $0.id) < ($1.dueAt, $1.id) }
        }
    }

    /// What came of a job.
    public enum Result: Sendable, Equatable {
        /// Done: nothing more is owed.
        case done
        /// Owed again at this time (an order on its R4 schedule).
        case again(at: Millis)
        /// It failed; tried again with backoff, or dead after `maxAttempts`.
        case failed(String)
    }

    /// The most times a failing job is taken before it is dead and waits for an operator.
    public static let maxAttempts: Int64 = 20

    /// Records what came of `job`, fenced: only the owner of this very attempt may finish
    /// it, so a worker that lost its lease (and the job to another) changes nothing. Returns
    /// whether the finish counted.
    @discardableResult
    public func finish(_ job: Job, owner: String, result: Result, now: Millis = .now()) async throws -> Bool {
        try await store.write(as: .system, now: now) { tx in
            let fence = JobLease(job: job, owner: owner).fence
            let query: SQLQueryString
            switch result {
            case .done:
                return try await tx.finishLeasedJob(fence)
            case .again(let at):
                query = """
                    UPDATE jobs SET due_at = CASE WHEN again_at IS NOT NULL AND again_at < \(bind: at) THEN again_at ELSE \(bind: at) END,
                      again_at = NULL, attempts = 0, lease_owner = NULL, lease_until = NULL, last_error = NULL
                    WHERE \(fence) RETURNING id
                    """
            case .failed(let error):
                let dead = job.attempts >= Self.maxAttempts
                let backoff = Millis.seconds(min(3_600, 1 << min(job.attempts, 12)))
                query = """
                    UPDATE jobs SET due_at = CASE WHEN again_at IS NOT NULL AND again_at < \(bind: now + backoff) THEN again_at ELSE \(bind: now + backoff) END,
                      again_at = NULL, lease_owner = NULL, lease_until = NULL,
                      last_error = \(bind: String(error.prefix(500))), dead_at = \(bind: dead ? now : nil)
                    WHERE \(fence) RETURNING id
                    """
            }
            return try await tx.sql.row(query) != nil
        }
    }

    /// Gives back every lease `owner` holds (a graceful stop), so other workers take the
    /// jobs now rather than when the leases run out.
    public func releaseLeases(owner: String, now: Millis = .now()) async throws {
        try await store.write(as: .system, now: now) { tx in
            try await tx.sql.raw("UPDATE jobs SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = \(bind: owner)").run()
        }
    }

    /// Due, leased and dead jobs, and the oldest due: what `/metrics` and the header show.
    public func status(now: Millis = .now()) async throws -> JobQueueStatus {
        try await store.read { sql in
            let row = try await sql.row(
                """
                SELECT
                  COALESCE(SUM(CASE WHEN dead_at IS NULL AND due_at <= \(bind: now) AND (lease_until IS NULL OR lease_until < \(bind: now)) THEN 1 ELSE 0 END), 0) AS due,
                  MIN(CASE WHEN dead_at IS NULL AND due_at <= \(bind: now) THEN due_at END) AS oldest,
                  COALESCE(SUM(CASE WHEN lease_until >= \(bind: now) THEN 1 ELSE 0 END), 0) AS leased,
                  COALESCE(SUM(CASE WHEN dead_at IS NOT NULL THEN 1 ELSE 0 END), 0) AS dead
                FROM jobs
                """)
            return JobQueueStatus(
                due: try row?.int("due") ?? 0, oldestDueAt: try row?.optionalInt64("oldest"),
                leased: try row?.int("leased") ?? 0, dead: try row?.int("dead") ?? 0)
        }
    }

    /// The job for `work`, if one is owed.
    public func job(_ work: JobWork) async throws -> Job? {
        try await store.read { sql in
            try await sql.row("SELECT \(unsafeRaw: Job.Column.list) FROM jobs WHERE kind = \(bind: work.kind.rawValue) AND subject = \(bind: work.subject)")
                .map(Job.init(row:))
        }
    }

    /// The queue for operators: dead jobs first (they wait for someone), then by due time.
    public func list(deadOnly: Bool = false, limit: Int = 100) async throws -> [Job] {
        try await store.read { sql in
            try await sql.rows(
                """
                SELECT \(unsafeRaw: Job.Column.list) FROM jobs \(unsafeRaw: deadOnly ? "WHERE dead_at IS NOT NULL" : "")
                ORDER BY CASE WHEN dead_at IS NULL THEN 1 ELSE 0 END, due_at, id LIMIT \(literal: limit)
                """
            ).map(Job.init(row:))
        }
    }

    /// Brings a dead job back: due now, its attempts counted from zero. Audited with the reason.
    public func requeue(id: Int64, by actor: Operator, reason: String, at now: Millis = .now()) async throws -> Job {
        try store.requireOperator(actor, may: .requeueJobs, reason: reason)
        return try await store.write(as: actor, now: now) { tx in
            guard
                let job = try await tx.sql.row(
                    """
                    UPDATE jobs SET dead_at = NULL, due_at = \(bind: now), attempts = 0, lease_owner = NULL, lease_until = NULL
                    WHERE id = \(bind: id) AND dead_at IS NOT NULL RETURNING \(unsafeRaw: Job.Column.list)
                    """
                ).map(Job.init(row:))
            else {
                throw StoreError.jobNotDead(id: id)
            }
            tx.audit(
                .jobRequeue, target: job.kind == .verify ? .order(job.subject) : .job(id), reason: reason,
                .jobRequeued(kind: job.kind, subject: job.subject, lastError: job.lastError))
            return job
        }
    }
}
