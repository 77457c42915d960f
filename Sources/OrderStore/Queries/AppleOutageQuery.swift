import SQLKit

extension OrderStore {
    /// Apple failing now (OutageRule over the newest attempts), with the orders waiting;
    /// nil when Apple answers. Reads the newest 100 attempts by primary key; `counts`
    /// already loaded (the console's header) are reused.
    public func appleOutage(counts known: StoreCounts? = nil, now: Millis = .now()) async throws -> AppleOutage? {
        let attempts = try await read { sql in
            try await sql.rows("SELECT method, outcome, at FROM verification_attempts ORDER BY id DESC LIMIT 100").map { row in
                OutageRule.Attempt(method: try row.value("method", as: VerificationMethod.self),
                                   outcome: try row.value("outcome", as: AttemptOutcome.self), at: try row.int64("at"))
            }
        }
        guard let found = OutageRule.detect(newestFirst: attempts, now: now) else { return nil }
        var counts = known
        if counts == nil { counts = try await self.counts(now: now) }
        return AppleOutage(method: found.method, since: found.since, failures: found.failures,
                           waiting: (counts?.byState[.receiptReceived] ?? 0) + (counts?.byState[.verifyRetry] ?? 0))
    }
}
