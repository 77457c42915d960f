import SQLKit

/// What the console header shows on every frame; cheap by construction: counters kept
/// by the write path, and two index probes.
public struct StoreCounts: Sendable, Equatable {
    public var byState: [OrderState: Int64]
    public var total: Int64 { byState.values.reduce(0, +) }
    /// Orders stuck past the threshold, counted up to ``cap``.
    public var stuck: Int64
    /// Age of the oldest stuck order, if any.
    public var oldestStuckAge: Millis?
    /// R2: orders Apple answered from sandbox in a production store (App Review, testers),
    /// kept apart so finance can reconcile; counted up to ``cap``.
    public var sandboxInProduction: Int64 = 0
    /// Events the game has not confirmed ("granted, game not told"), counted up
    /// to ``cap`` like the others.
    public var gameNotTold: Int64 = 0
    /// Apple's refund requests still waiting for an answer, counted up to
    /// ``cap``, and how long Apple still waits for the soonest of them.
    public var openRefundRequests: Int64 = 0
    public var nextRefundDueIn: Millis?
    /// On a hot standby (``OrderStore/isReplica``): how far behind the primary what it shows
    /// is (0 when it has replayed all it received); nil elsewhere.
    public var replicationLag: Millis? = nil

    /// Counts that grow with the store stop here and show as "1000+": each is then a
    /// bounded index range, whatever the store's size (at ten million orders, counting
    /// 19,000 stuck orders took 6–12 ms on PostgreSQL; a thousand is well past the point
    /// where on-call needs the exact number).
    public static let cap: Int64 = 1_000
}

extension Reports {
    /// The header's numbers: orders per state, stuck and the oldest stuck age, the flags
    /// on-call watches. Each count is capped at ``StoreCounts/cap`` so it stays cheap at any size.
    public func counts(now: Millis = .now()) async throws -> StoreCounts {
        let cutoff = now - store.settings.stuckThreshold
        return try await store.read { sql in
            var byState: [OrderState: Int64] = [:]
            for row in try await sql.rows("SELECT state, n FROM state_counts") {
                byState[try row.value("state", as: OrderState.self)] = try row.int64("n")
            }
            // The other figures in one statement: on PostgreSQL each statement is a round
            // trip, and the header asks for these on every refresh.
            let sandboxCap: SQLQueryString =
                store.settings.isProduction
                ? "(SELECT COUNT(*) FROM (SELECT 1 FROM orders WHERE environment = 'Sandbox' LIMIT \(bind: StoreCounts.cap)) AS capped_sandbox)"
                : "0"
            // A standby's lag: 0 once it replayed all it received, else the age of the last
            // transaction it replayed (on an idle primary that age grows with nothing to replay).
            let lag: SQLQueryString =
                store.isReplica
                ? """
                CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
                     ELSE CAST(EXTRACT(EPOCH FROM (now() - pg_last_xact_replay_timestamp())) * 1000 AS BIGINT) END
                """ : "NULL"
            let figures = try await sql.row(
                """
                SELECT \(lag) AS lag,
                       (SELECT MIN(stuck_since) FROM orders WHERE stuck_since IS NOT NULL) AS oldest,
                       (SELECT COUNT(*) FROM (SELECT 1 FROM orders WHERE stuck_since IS NOT NULL AND stuck_since <= \(bind: cutoff)
                                              LIMIT \(bind: StoreCounts.cap)) AS capped_stuck) AS stuck,
                       \(sandboxCap) AS sandbox,
                       \(UnconfirmedEvents.count(cap: StoreCounts.cap)) AS not_told,
                       (SELECT COUNT(*) FROM (SELECT 1 FROM notifications n WHERE \(OrderStore.refundRequestIndexed) AND \(OrderStore.openRefundRequest(now))
                                              LIMIT \(bind: StoreCounts.cap)) AS capped_refunds) AS refunds,
                       (SELECT MIN(n.deadline_at) FROM notifications n WHERE \(OrderStore.refundRequestIndexed) AND \(OrderStore.openRefundRequest(now))) AS next_refund
                """)
            let oldest = try figures?.optionalInt64("oldest")
            let stuck = try figures?.int64("stuck") ?? 0
            let sandbox = try figures?.int64("sandbox") ?? 0
            let notTold = try figures?.int64("not_told") ?? 0
            let oldestAge = oldest.flatMap { $0 <= cutoff ? now - $0 : nil }
            return StoreCounts(
                byState: byState, stuck: stuck, oldestStuckAge: oldestAge, sandboxInProduction: sandbox, gameNotTold: notTold,
                openRefundRequests: try figures?.int64("refunds") ?? 0, nextRefundDueIn: try figures?.optionalInt64("next_refund").map { $0 - now },
                replicationLag: try figures?.optionalInt64("lag"))
        }
    }
}
