import OrderDomain
import SQLKit

extension AppleNotifications {
    /// PostgreSQL: verified notifications (each with its uuid) stored, the worker owed its
    /// jobs and told, in one statement that is its own transaction: one round trip answers
    /// the batch, where a transaction took four for one notification (begin, insert, jobs,
    /// commit) — the acknowledgement path spent half the machine on PostgreSQL's side of
    /// those round trips. What it stores is what ``WriteTransaction/receive(_:)`` stores.
    ///
    /// Jobs are upserted in key order (`COLLATE "C"`, the order the transactions' owed jobs
    /// take too), so two batches about the same purchases lock them in the same order.
    func receiveInOneStatement(_ batch: [IncomingNotification], at now: Millis) async throws -> [NotificationReceipt] {
        let rows = try batch.map { try NotificationInsert.values($0, at: now) }
        let statement: SQLQueryString =
            """
            WITH stored AS (
              INSERT INTO notifications (\(unsafeRaw: NotificationInsert.columns)) VALUES \(rows.joined(separator: ", "))
              ON CONFLICT (uuid) DO NOTHING RETURNING id, uuid, apply_key),
            owed AS (
              INSERT INTO jobs (kind, subject, due_at, created_at)
              SELECT \(bind: JobKind.applyNotifications.rawValue), apply_key, \(bind: now), \(bind: now)
              FROM (SELECT DISTINCT apply_key FROM stored) AS keys ORDER BY apply_key COLLATE "C"
            """ + WriteTransaction.owingAgain
                + """
                 RETURNING 1)
                SELECT id, uuid, (SELECT 1 FROM (\(unsafeRaw: JobListener.told(byRowsOf: "owed"))) AS told) AS told FROM stored
                """
        let (stored, earlier): ([String: Int64], [String: Int64]) = try await store.pool.withConnection(writing: true) { db in
            let stored = try await db.sql.rows(statement)
            let ids = try Dictionary(stored.map { (try $0.string("uuid"), try $0.int64("id")) }, uniquingKeysWith: min)
            // Sent again by Apple (a retry, the history sweep): the id it was stored under.
            let again = Set(batch.compactMap(\.facts.uuid)).subtracting(ids.keys)
            guard !again.isEmpty else { return (ids, [:]) }
            let found = try await db.sql.rows("SELECT id, uuid FROM notifications WHERE uuid IN (\(binds: Array(again)))")
            return (ids, try Dictionary(found.map { (try $0.string("uuid"), try $0.int64("id")) }, uniquingKeysWith: min))
        }
        if !stored.isEmpty { store.jobsDue.notify() }
        var answered: Set<String> = []
        return batch.map { notification in
            let uuid = notification.facts.uuid ?? ""
            // The first of a uuid sent twice in one batch is the one stored.
            if let id = stored[uuid], answered.insert(uuid).inserted { return .stored(id: id) }
            return .duplicate(id: stored[uuid] ?? earlier[uuid] ?? 0)
        }
    }
}
