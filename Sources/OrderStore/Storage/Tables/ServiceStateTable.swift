import OrderDomain
import SQLKit

/// Small named values the server keeps between runs (a history sweep's watermark).
extension OrderStore {
    /// The value kept under `key`, or nil if none was ever set.
    public func serviceState(_ key: String) async throws -> String? {
        try await read { sql in try await sql.row("SELECT value FROM service_state WHERE key = \(bind: key)")?.string("value") }
    }

    /// Keeps `value` under `key`, replacing what was there.
    public func setServiceState(_ key: String, _ value: String, at now: Millis = .now()) async throws {
        try await write(as: .system, now: now) { tx in
            try await tx.sql.raw(
                """
                INSERT INTO service_state (key, value, updated_at) VALUES (\(bind: key), \(bind: value), \(bind: now))
                ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                """
            ).run()
        }
    }

    /// Makes sure the job for `work` is due by `dueAt` (a scheduled sweep).
    public func schedule(_ work: JobWork, dueAt: Millis, at now: Millis = .now()) async throws {
        try await write(as: .system, now: now) { tx in try await tx.enqueue(work, dueAt: dueAt) }
    }
}

/// The worker side as the console's header shows it.
public struct WorkerStatus: Sendable, Equatable {
    /// Workers that reported in within `WorkerStatus.liveWithin`.
    public var live: Int
    public var queue: JobQueueStatus

    public static let liveWithin: Millis = .seconds(15)
}

extension OrderStore {
    /// A worker says it is alive (every few seconds while it runs). Workers killed without
    /// a goodbye are forgotten a day later.
    public func heartbeat(worker owner: String, at now: Millis = .now()) async throws {
        try await write(as: .system, now: now) { tx in
            try await tx.sql.raw(
                """
                INSERT INTO service_state (key, value, updated_at) VALUES (\(bind: "worker:\(owner)"), 'alive', \(bind: now))
                ON CONFLICT (key) DO UPDATE SET updated_at = excluded.updated_at
                """
            ).run()
            try await tx.sql.raw("DELETE FROM service_state WHERE key LIKE 'worker:%' AND updated_at < \(bind: now - .hours(24))").run()
        }
    }

    /// A worker that stops cleanly says so.
    public func forgetWorker(_ owner: String) async throws {
        try await write(as: .system) { tx in
            try await tx.sql.raw("DELETE FROM service_state WHERE key = \(bind: "worker:\(owner)")").run()
        }
    }

    /// How many workers beat within ``WorkerStatus/liveWithin`` of `now`, and the job queue:
    /// due, the oldest due, dead. What the console's header and `iapdesk jobs` show.
    public func workerStatus(now: Millis = .now()) async throws -> WorkerStatus {
        let live = try await read { sql in
            try await sql.row(
                """
                SELECT COUNT(*) AS n FROM service_state WHERE key LIKE 'worker:%' AND updated_at >= \(bind: now - WorkerStatus.liveWithin)
                """)?.int("n") ?? 0
        }
        return WorkerStatus(live: live, queue: try await jobs.status(now: now))
    }
}
