import OrderDomain
import PostgresNIO
import SQLKit

// The statements every order's writes go through, prepared once per PostgreSQL connection:
// a receipt's intake reads the order, stores the submission and moves the order, and sent
// unnamed each was parsed and planned afresh (a third of PostgreSQL's time under load).

/// An order by its id.
struct OrderById: StoreStatement {
    static let name = "iapdesk_order_by_id_v1"
    static let sql = "SELECT \(Order.Column.list) FROM orders WHERE order_id = $1"
    static let bindingDataTypes: [PostgresDataType] = [.text]

    var orderId: String
    var values: [StatementValue] { [.text(orderId)] }
}

/// A receipt as it arrived (R1), returning its id.
struct SubmissionInsert: StoreStatement {
    static let name = "iapdesk_submission_insert_v1"
    /// The columns `values` fill, in order (a held batch adds `id` first, ``HeldWrites``).
    static let columns = "order_id, account_id, claimed_transaction_id, source, receipt_data, received_at, purchase_token, kind"
    static let sql = "INSERT INTO receipt_submissions (\(columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id"
    static let bindingDataTypes: [PostgresDataType] = [.text, .text, .text, .text, .text, .int8, .text, .text]

    var values: [StatementValue]
}

/// An order's row as a save leaves it, if nobody changed it since `previousVersion` was
/// read; returns the new version. The store and app are written only when `paidElsewhere`.
struct OrderSave: StoreStatement {
    static let name = "iapdesk_order_save_v1"
    /// What a save sets; a held batch (``HeldWrites``) sets the same from its rows' values.
    static let assignments = """
        marketplace = CASE WHEN $1 = 1 THEN $2 ELSE marketplace END, app = CASE WHEN $1 = 1 THEN $3 ELSE app END,
          state = $4, state_changed_at = $5, version = version + 1, updated_by = $6, stuck_since = $7, environment = $8, transaction_id = $9,
          original_transaction_id = $10, attempts = $11, first_failure_at = $12, next_retry_at = $13, last_error = NULL, reason_details = $14,
          reason_code = $15, needs_operator = $16, replay_flag = $17, delivery_conflict = $18
        """
    /// `$19` and `$20`: the order and the version it was read at.
    static let sql = "UPDATE orders SET \(assignments) WHERE order_id = $19 AND version = $20 RETURNING version"
    static let bindingDataTypes: [PostgresDataType] = [
        .int8, .text, .text, .text, .int8, .text, .int8, .text, .text, .text, .int8, .int8, .int8, .text, .text, .int8, .int8, .text, .text, .int8,
    ]

    let values: [StatementValue]
    let orderId: String
    /// The version the order was read at; the save leaves it one higher.
    let previousVersion: Int64

    init(_ order: Order, paidElsewhere: Bool, previousVersion: Int64) throws {
        orderId = order.orderId
        self.previousVersion = previousVersion
        values = [
            .integer(paidElsewhere ? 1 : 0), .text(order.marketplace.rawValue), .text(order.app), .text(order.state.rawValue),
            .integer(order.stateChangedAt), .text(order.updatedBy), .integer(order.stuckSince), .text(order.environment?.rawValue),
            .text(order.transactionId), .text(order.originalTransactionId), .integer(Int64(order.attempts)), .integer(order.firstFailureAt),
            .integer(order.nextRetryAt), .text(try order.particulars?.json()), .text(order.reason?.code), .integer(order.needsOperator ? 1 : 0),
            .integer(order.replayFlag ? 1 : 0), .text(order.deliveryConflict), .text(order.orderId), .integer(previousVersion),
        ]
    }
}

extension WriteTransaction {
    /// The order, read in this transaction: by a batch's prefetch the first time it is asked
    /// for, else now (a second item of the batch for the same order sees the first's changes).
    ///
    /// - Throws: `StoreError/notFound(kind:id:)` when there is none.
    func requireOrder(_ orderId: String) async throws -> Order {
        if let order = prefetched.removeValue(forKey: orderId) { return order }
        guard let row = try await database.rows(OrderById(orderId: orderId)).first else { throw StoreError.notFound(kind: .order, id: orderId) }
        return try Order(row: row)
    }

    /// Reads a batch's orders in one statement, for its items' first `requireOrder`: a
    /// group commit of submissions read each order apart, one round trip (and on SQLite one
    /// trip to its thread) each. Ids of no order are left to the item, which fails alone.
    ///
    /// `holdingWrites` (PostgreSQL): the same statement reserves a submission id for each
    /// order found, and the batch's submissions and saves are held for the commit
    /// (``HeldWrites``).
    func prefetchOrders(_ orderIds: [String], holdingWrites: Bool = false) async throws {
        var reserved: [String: Int64] = [:]
        let reserving: SQLQueryString = holdingWrites ? ", nextval('receipt_submissions_id_seq') AS reserved_submission_id" : ""
        for chunk in Array(Set(orderIds)).chunks(of: 500) {
            let rows = try await sql.rows(
                "SELECT \(unsafeRaw: Order.Column.list)\(reserving) FROM orders WHERE order_id IN (\(binds: Array(chunk)))")
            for row in rows {
                let order = try Order(row: row)
                prefetched[order.orderId] = order
                if holdingWrites { reserved[order.orderId] = try row.int64("reserved_submission_id") }
            }
        }
        if holdingWrites { held = HeldWrites(reservedIds: reserved) }
    }
}
