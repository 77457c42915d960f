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
    /// order since it was read.
    func writeSave(_ save: OrderSave) async throws -> Int64? {
        if var holding = held {
            holding.saves.append(save)
            held = holding
            return save.previousVersion + 1
        }
        return try await database.rows(save).first?.int64("version")
    }

    /// ``OrderSave``'s assignments, each `$n` read from the held row's column `v.cn`: one
    /// text for both, so a column a save learns to set is set by a held batch too.
    private static let heldAssignments = OrderSave.assignments.replacing(/\$([0-9]+)/) { "v.c" + $0.1 }
    private static let heldColumns = OrderSave.bindingDataTypes.indices.map { "c\($0 + 1)" }.joined(separator: ", ")

    /// The held writes, first at the commit (the order rows, then the jobs, counters and
    /// audit head, as when they are written at once).
    func writeHeld() async throws {
        guard let holding = held else { return }
        held = nil
        if !holding.submissions.isEmpty {
            try await sql.raw(
                "INSERT INTO receipt_submissions (id, \(unsafeRaw: SubmissionInsert.columns)) VALUES \(holding.submissions.joined(separator: ", "))"
            ).run()
        }
        guard !holding.saves.isEmpty else { return }
        let types = OrderSave.bindingDataTypes.map { $0 == .int8 ? "BIGINT" : "TEXT" }
        let rows = holding.saves.map { save in
            "(" + zip(save.values, types).map { SQLQueryString("CAST(\(bind: $0.encodable) AS \(unsafeRaw: $1))") }.joined(separator: ", ") + ")"
        }
        let saved = try await sql.rows(
            """
            UPDATE orders SET \(unsafeRaw: Self.heldAssignments)
            FROM (VALUES \(rows.joined(separator: ", "))) AS v(\(unsafeRaw: Self.heldColumns))
            WHERE orders.order_id = v.c19 AND orders.version = v.c20
            RETURNING orders.order_id
            """
        ).map { try $0.string("order_id") }
        guard saved.count == holding.saves.count else {
            let stale = holding.saves.map(\.orderId).first { !saved.contains($0) } ?? ""
            throw try await conflict(orderId: stale)
        }
    }
}
