import SQLKit

/// Small named values the server keeps between runs (a history sweep's watermark).
extension OrderStore {
    public func serviceState(_ key: String) async throws -> String? {
        try await read { sql in try await sql.row("SELECT value FROM service_state WHERE key = \(bind: key)")?.string("value") }
    }

    public func setServiceState(_ key: String, _ value: String, at now: Millis = .now()) async throws {
        try await write(as: .system, now: now) { tx in
            try await tx.sql.raw("""
                INSERT INTO service_state (key, value, updated_at) VALUES (\(bind: key), \(bind: value), \(bind: now))
                ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                """).run()
        }
    }

    /// Makes sure a `kind` job for `subject` is due by `dueAt` (a scheduled sweep).
    public func schedule(_ kind: JobKind, subject: String, dueAt: Millis, at now: Millis = .now()) async throws {
        try await write(as: .system, now: now) { tx in try await tx.enqueue(kind, subject: subject, dueAt: dueAt) }
    }
}
