import OrderDomain

extension Orders {
    /// A new order, waiting for payment. Its id is what the app sends Apple as
    /// `applicationUsername` / `appAccountToken`.
    ///
    /// - Parameters:
    ///   - orderId: the game's id for the order, unique in the store.
    ///   - accountId: the player's account in the game.
    ///   - productId: a product of the catalogue (``Catalogue/upsert(_:by:at:)``).
    ///   - quantity: how many, as the app asked Apple for (R5 checks it).
    ///   - at: when the order was placed; R5 refuses a purchase made before it.
    /// - Returns: the order, in `OrderState/pendingPayment`.
    /// - Throws: `StoreError/orderExists(orderId:)` for an id placed before (a caller that
    ///   retries uses ``ensure(orderId:accountId:productId:quantity:at:)``); `StoreError/invalid(_:)` for an empty id or a
    ///   quantity below one; `StoreError/notFound(kind:id:)` for an unknown product.
    ///
    /// ```swift
    /// try await store.orders.place(orderId: "ord_1001", accountId: "player_42", productId: "coins_60")
    /// ```
    @discardableResult
    public func place(orderId: String, accountId: String, productId: String, quantity: Int = 1, at: Millis = .now()) async throws -> Order {
        let (order, created) = try await insert(orderId: orderId, accountId: accountId, productId: productId, quantity: quantity, at: at)
        guard created else { throw StoreError.orderExists(orderId: orderId) }
        return order
    }

    /// `place` for a caller that may retry (a game server after a timeout): the same
    /// order placed again is the order already there (`created` false); the same id with
    /// another account, product or quantity is refused.
    public func ensure(orderId: String, accountId: String, productId: String, quantity: Int = 1, at: Millis = .now()) async throws -> (
        order: Order, created: Bool
    ) {
        let (order, created) = try await insert(orderId: orderId, accountId: accountId, productId: productId, quantity: quantity, at: at)
        guard created || (order.accountId == accountId && order.productId == productId && order.quantity == quantity) else {
            throw StoreError.orderMismatch(orderId: orderId)
        }
        return (order, created)
    }

    /// Inserts the order unless its id exists; either way returns the order under that id.
    private func insert(orderId: String, accountId: String, productId: String, quantity: Int, at: Millis) async throws -> (Order, created: Bool) {
        guard !orderId.isEmpty, !accountId.isEmpty else { throw StoreError.invalid(.orderWithoutIds) }
        guard quantity > 0 else { throw StoreError.invalid(.quantityNotPositive(quantity)) }
        return try await store.write(as: .system, now: at) { tx in
            guard let product = try await tx.sql.product(productId) else { throw StoreError.unknownProduct(productId) }
            if product.retiredAt != nil, try await tx.sql.order(orderId) == nil { throw StoreError.productRetired(productId) }
            let inserted = try await tx.insertOrder(
                orderId: orderId, accountId: accountId, productId: productId, quantity: quantity, at: at, state: .pendingPayment, by: "system")
            return (try await tx.requireOrder(orderId), inserted)
        }
    }
}
