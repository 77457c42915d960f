import SQLKit

/// New rows of the orders table.
extension WriteTransaction {
    /// Inserts an order in `state` unless its id exists, counting it in the header's totals;
    /// false when the id was taken (the order there is left as it is).
    func insertOrder(
        orderId: String, accountId: String, productId: String, quantity: Int, at: Millis, state: OrderState, by actor: String
    ) async throws -> Bool {
        let inserted = try await sql.row(
            """
            INSERT INTO orders (order_id, account_id, product_id, quantity, created_at, state, state_changed_at, version, updated_by)
            VALUES (\(bind: orderId), \(bind: accountId), \(bind: productId), \(bind: quantity), \(bind: at),
                    \(bind: state.rawValue), \(bind: at), 1, \(bind: actor))
            ON CONFLICT (order_id) DO NOTHING RETURNING order_id
            """)
        if inserted != nil { countNew(state) }
        return inserted != nil
    }
}
