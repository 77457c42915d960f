import OrderDomain
import SQLKit

extension Reports {
    /// The header's numbers: orders per state, stuck and the oldest stuck age, the flags
    /// on-call watches. Each count is capped at `StoreCounts/cap` so it stays cheap at any size.
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
                ? "(SELECT COUNT(*) FROM (SELECT 1 FROM orders WHERE environment = 'Sandbox' LIMIT \(literal: StoreCounts.cap)) AS capped_sandbox)"
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
                                              LIMIT \(literal: StoreCounts.cap)) AS capped_stuck) AS stuck,
                       \(sandboxCap) AS sandbox,
                       \(UnconfirmedEvents.count(cap: StoreCounts.cap)) AS not_told,
                       (SELECT COUNT(*) FROM (SELECT 1 FROM notifications n WHERE \(OrderStore.refundRequestIndexed) AND \(OrderStore.openRefundRequest(now))
                                              LIMIT \(literal: StoreCounts.cap)) AS capped_refunds) AS refunds,
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
