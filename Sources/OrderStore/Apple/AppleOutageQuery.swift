import OrderDomain
import SQLKit

extension AppleAnswers {
    /// Which of Apple's endpoints is failing now, and since when (OutageRule over the newest
    /// 100 attempts, read by primary key): what the worker checks before each round.
    public func failing(now: Millis = .now()) async throws -> (method: VerificationMethod, since: Millis, failures: Int)? {
        let attempts = try await store.read { sql in
            try await sql.rows("SELECT method, outcome, at FROM verification_attempts ORDER BY id DESC LIMIT 100").map { row in
                OutageRule.Attempt(
                    method: try row.value("method", as: VerificationMethod.self),
                    outcome: try row.value("outcome", as: AttemptOutcome.self), at: try row.int64("at"))
            }
        }
        return OutageRule.detect(newestFirst: attempts, now: now)
    }

    /// The outage with the orders waiting, for the banner; nil when Apple answers. `counts`
    /// already loaded (the console's header) are reused.
    public func outage(counts known: StoreCounts? = nil, now: Millis = .now()) async throws -> AppleOutage? {
        guard let found = try await failing(now: now) else { return nil }
        var counts = known
        if counts == nil { counts = try await store.reports.counts(now: now) }
        return AppleOutage(
            method: found.method, since: found.since, failures: found.failures,
            waiting: (counts?.byState[.receiptReceived] ?? 0) + (counts?.byState[.verifyRetry] ?? 0))
    }
}
