extension OrderStore {
    /// Attaches a transaction Apple knows but no order claimed (an orphan, [S4] 未知订单)
    /// to the order it paid for. The purchase keys are claimed as in R7, so an orphan can't
    /// be attached twice; an order still waiting for payment now has its evidence.
    @discardableResult
    public func attachOrphan(transactionId: String, to orderId: String, expectedVersion: Int64, by actor: Operator, reason: String, at now: Millis = .now()) async throws -> Order {
        try requireOperator(actor, may: "attach orphan transactions", reason: reason)
        return try await write(as: actor, now: now) { tx in
            let order = try await tx.sql.requireOrder(orderId)
            guard order.version == expectedVersion else { throw try await tx.conflict(orderId: orderId) }
            guard let row = try await tx.sql.row("""
                SELECT transaction_id, original_transaction_id, product_id, quantity, purchase_date, web_order_line_item_id,
                       environment, order_id
                FROM transactions WHERE transaction_id = \(bind: transactionId)
                """) else { throw StoreError.notFound(kind: "transaction", id: transactionId) }
            if let owner = try row.optionalString("order_id") {
                throw StoreError.invalid("transaction \(transactionId) already belongs to order \(owner)")
            }
            guard order.transactionId == nil, order.state == .pendingPayment || order.state.isPaidUndelivered else {
                throw StoreError.invalid("order \(orderId) is \(order.state.rawValue) and already has its transaction")
            }
            let transaction = AppleTransaction(
                transactionId: try row.string("transaction_id"), originalTransactionId: try row.string("original_transaction_id"),
                productId: try row.string("product_id"), quantity: try row.int("quantity"), purchaseDate: try row.int64("purchase_date"),
                webOrderLineItemId: try row.optionalString("web_order_line_item_id"))
            guard transaction.productId == order.productId else {
                throw StoreError.invalid("transaction \(transactionId) bought \(transaction.productId), order \(orderId) is for \(order.productId)")
            }
            let types = try await tx.sql.productTypes()
            if let holder = try await claim(tx, transaction: transaction, type: types[order.productId] ?? .consumable, order: order) {
                throw StoreError.invalid("cannot attach: \(holder)")
            }
            var next = order
            next.transactionId = transaction.transactionId
            next.originalTransactionId = transaction.originalTransactionId
            next.environment = try row.optionalValue("environment", as: AppleEnvironment.self)
            if next.state == .pendingPayment { next.state = .receiptReceived }
            return try await tx.save(next, previous: order, action: "orphan.attach", reason: reason, detail: "transaction \(transactionId)")
        }
    }
}
