import OrderDomain
import SQLKit

/// New rows of the orders table.
extension WriteTransaction {
    /// Inserts an order in `state` (in its product's app) unless its id exists, counting it in the header's totals;
    /// false when the id was taken (the order there is left as it is).
    func insertOrder(
        orderId: String, accountId: String, productId: String, quantity: Int, at: Millis, state: OrderState, by actor: String
    ) async throws -> Bool {
        let inserted = try await sql.row(
            """
            INSERT INTO orders (order_id, account_id, product_id, quantity, created_at, state, state_changed_at, version, updated_by, app)
            VALUES (\(bind: orderId), \(bind: accountId), \(bind: productId), \(bind: quantity), \(bind: at),
                    \(bind: state.rawValue), \(bind: at), 1, \(bind: actor), (SELECT app FROM products WHERE product_id = \(bind: productId)))
            ON CONFLICT (order_id) DO NOTHING RETURNING order_id
            """)
        if inserted != nil { countNew(state) }
        return inserted != nil
    }
}
