import OrderDomain
import SQLKit

/// A group commit's receipt submissions and order saves, written at its commit as one
/// statement each instead of two statements an item (PostgreSQL). Held only while the
/// whole batch is tried at once and its orders are distinct: a save held past a read of
/// the same order would hide itself, and a batch tried item by item (each in a savepoint)
/// must fail at the item. A stale version found at the commit fails the whole try, and
/// the batch is tried again item by item, where the stale one fails alone.
struct HeldWrites {
    /// Submission ids taken from the sequence with the batch's orders (one an order, the
    /// orders being distinct), so each item knows its own at once.
    var reservedIds: [String: Int64]
    var submissions: [SQLQueryString] = []
    var saves: [OrderSave] = []
}

extension WriteTransaction {
    /// Stores a submission for `orderId` (`values` in ``SubmissionInsert``'s order) and
    /// returns its id: at once, or held until the commit.
    func insertSubmission(for orderId: String, _ values: [StatementValue]) async throws -> Int64 {
        if var holding = held, let id = holding.reservedIds.removeValue(forKey: orderId) {
            holding.submissions.append("(\(bind: id), \(values.map { SQLQueryString("\(bind: $0.encodable)") }.joined(separator: ", ")))")
            held = holding
            return id
        }
        guard let row = try await database.rows(SubmissionInsert(values: values)).first else {
            throw StoreError.corrupt("submission insert returned no id")
        }
        return try row.int64("id")
    }

    /// Writes an order's save (see ``OrderSave``): at once, returning its new version, or
    /// held until the commit (the version it will have then). Nil: someone changed the
    /// order since `previousVersion` was read.
    func writeSave(_ save: OrderSave, previousVersion: Int64) async throws -> Int64? {
        if var holding = held {
            holding.saves.append(save)
            held = holding
            return previousVersion + 1
        }
        return try await database.rows(save).first?.int64("version")
    }

    /// The held writes, first at the commit (the order rows, then the jobs, counters and
    /// audit head, as when they are written at once).
    func writeHeld() async throws {
        guard let holding = held else { return }
        held = nil
        if !holding.submissions.isEmpty {
            try await sql.raw(
                """
                INSERT INTO receipt_submissions (id, order_id, account_id, claimed_transaction_id, source, receipt_data, received_at, purchase_token, kind)
                VALUES \(holding.submissions.joined(separator: ", "))
                """
            ).run()
        }
        guard !holding.saves.isEmpty else { return }
        let types = OrderSave.bindingDataTypes.map { $0 == .int8 ? "BIGINT" : "TEXT" }
        let rows = holding.saves.map { save in
            "(" + zip(save.values, types).map { SQLQueryString("CAST(\(bind: $0.encodable) AS \(unsafeRaw: $1))") }.joined(separator: ", ") + ")"
        }
        let saved = try await sql.rows(
            """
            UPDATE orders AS o SET marketplace = CASE WHEN v.c1 = 1 THEN v.c2 ELSE o.marketplace END, app = CASE WHEN v.c1 = 1 THEN v.c3 ELSE o.app END,
              state = v.c4, state_changed_at = v.c5, version = o.version + 1, updated_by = v.c6, stuck_since = v.c7, environment = v.c8,
              transaction_id = v.c9, original_transaction_id = v.c10, attempts = v.c11, first_failure_at = v.c12, next_retry_at = v.c13,
              last_error = NULL, reason_details = v.c14, reason_code = v.c15, needs_operator = v.c16, replay_flag = v.c17, delivery_conflict = v.c18
            FROM (VALUES \(rows.joined(separator: ", "))) AS v(c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19, c20)
            WHERE o.order_id = v.c19 AND o.version = v.c20
            RETURNING o.order_id
            """
        ).map { try $0.string("order_id") }
        guard saved.count == holding.saves.count else {
            let stale = holding.saves.map(\.orderId).first { !saved.contains($0) } ?? ""
            throw try await conflict(orderId: stale)
        }
    }
}
