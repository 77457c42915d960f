/// What the console header shows on every frame; cheap by construction: counters kept
/// by the write path, and two index probes.
public struct StoreCounts: Sendable, Equatable {
    public var byState: [OrderState: Int64]
    public var total: Int64 { byState.values.reduce(0, +) }
    /// Orders stuck past the threshold.
    public var stuck: Int64
    /// Age of the oldest stuck order, if any.
    public var oldestStuckAge: Millis?
    /// R2: orders Apple answered from sandbox in a production store (App Review, testers),
    /// kept apart so finance can reconcile; counted up to ``sandboxCountCap``.
    public var sandboxInProduction: Int64 = 0
    /// Events the game has not confirmed (issue 14: "granted, game not told"), counted up
    /// to ``sandboxCountCap`` like the sandbox figure.
    public var gameNotTold: Int64 = 0

    /// The header shows "10000+" past this, so the count stays an index probe of bounded cost.
    public static let sandboxCountCap: Int64 = 10_000
}

extension OrderStore {
    public func counts(now: Millis = .now()) async throws -> StoreCounts {
        let cutoff = now - settings.stuckThreshold
        return try await read { sql in
            var byState: [OrderState: Int64] = [:]
            for row in try await sql.rows("SELECT state, n FROM state_counts") {
                byState[try row.value("state", as: OrderState.self)] = try row.int64("n")
            }
            let oldest = try await sql.row("SELECT MIN(stuck_since) AS s FROM orders WHERE stuck_since IS NOT NULL")?.optionalInt64("s")
            let stuck = try await sql.row("""
                SELECT COUNT(*) AS n FROM orders WHERE stuck_since IS NOT NULL AND stuck_since <= \(bind: cutoff)
                """)?.int64("n") ?? 0
            let oldestAge = oldest.flatMap { $0 <= cutoff ? now - $0 : nil }
            var sandbox: Int64 = 0
            if settings.isProduction {
                sandbox = try await sql.row("""
                    SELECT COUNT(*) AS n FROM (SELECT 1 FROM orders WHERE environment = 'Sandbox' LIMIT \(bind: StoreCounts.sandboxCountCap)) AS capped
                    """)?.int64("n") ?? 0
            }
            let notTold = try await sql.unconfirmedEventCount(cap: StoreCounts.sandboxCountCap)
            return StoreCounts(byState: byState, stuck: stuck, oldestStuckAge: oldestAge, sandboxInProduction: sandbox, gameNotTold: notTold)
        }
    }
}
