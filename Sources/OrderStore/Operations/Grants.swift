extension OrderStore {
    /// A manual delivery by an operator, with a reason (DESIGN.md §6). Exactly once (R11):
    /// if someone delivered it first — even at the same instant from another machine —
    /// this fails with who and when, and nothing is granted twice. Acting on an order that
    /// changed since `expectedVersion` fails with who changed it. A `rejected` order can
    /// be granted by an admin only.
    @discardableResult
    public func grant(orderId: String, expectedVersion: Int64, by actor: Operator, reason: String, at now: Millis = .now()) async throws -> Order {
        try requireOperator(actor, may: "grant orders", reason: reason)
        return try await write(as: actor, now: now) { tx in
            let order = try await tx.sql.requireOrder(orderId)
            if order.state == .delivered { throw try await alreadyDelivered(tx, orderId: orderId) }
            guard order.version == expectedVersion else { throw try await tx.conflict(orderId: orderId) }
            if order.state == .rejected, actor.role != .admin {
                throw StoreError.forbidden(action: "grant a rejected order", role: actor.role)
            }
            guard order.state.canMove(to: .delivered) else {
                throw StoreError.illegalTransition(orderId: orderId, from: order.state, to: .delivered)
            }
            return try await deliver(tx, order: order, transactionId: order.transactionId, kind: "manual", reason: reason)
        }
    }

    /// Takes back a delivery (an operator's mistake, a fraud finding). The grant stays on
    /// record as revoked; the order becomes `rejected`, from where an admin can grant again.
    @discardableResult
    public func revoke(orderId: String, expectedVersion: Int64, by actor: Operator, reason: String, at now: Millis = .now()) async throws -> Order {
        try requireOperator(actor, may: "revoke deliveries", reason: reason)
        return try await write(as: actor, now: now) { tx in
            let order = try await tx.sql.requireOrder(orderId)
            guard order.version == expectedVersion else { throw try await tx.conflict(orderId: orderId) }
            guard order.state == .delivered else { throw StoreError.illegalTransition(orderId: orderId, from: order.state, to: .rejected) }
            try await tx.sql.raw("""
                UPDATE grants SET revoked_at = \(bind: now), revoked_by = \(bind: actor.name), revoke_reason = \(bind: reason)
                WHERE order_id = \(bind: orderId) AND revoked_at IS NULL
                """).run()
            var next = order
            next.state = .rejected
            next.lastError = "delivery revoked by \(actor.name): \(reason)"
            return try await tx.save(next, previous: order, action: "revoke", reason: reason)
        }
    }

    /// R9 from a notification (REFUND / REVOKE): the order that claimed the transaction is
    /// refunded and its grant revoked. A refund for a transaction no order claimed is kept
    /// on the transaction, so the orphan shows as refunded.
    @discardableResult
    public func recordRefund(transactionId: String, cancelledAt: Millis, reason: Int? = nil, at now: Millis = .now()) async throws -> Order? {
        try await write(as: .system, now: now) { tx in
            try await tx.sql.raw("""
                UPDATE transactions SET cancellation_date = \(bind: cancelledAt), cancellation_reason = \(bind: reason)
                WHERE transaction_id = \(bind: transactionId)
                """).run()
            guard let orderId = try await tx.sql.row("SELECT order_id FROM transactions WHERE transaction_id = \(bind: transactionId)")?
                .optionalString("order_id") else {
                tx.audit("refund.unclaimed", target: "tid:\(transactionId)", detail: "no order claims this transaction")
                return nil
            }
            let order = try await tx.sql.requireOrder(orderId)
            guard RefundRule.refundApplies(to: order.state) else {
                tx.audit("refund.ignored", target: "order:\(orderId)", detail: "order is \(order.state.rawValue), nothing was delivered")
                return order
            }
            return try await refund(tx, order: order, why: "Apple refunded transaction \(transactionId)")
        }
    }
}
