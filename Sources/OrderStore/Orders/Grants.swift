import OrderDomain

extension Orders {
    /// A manual delivery by an operator, with a reason. Exactly once (R11):
    /// if someone delivered it first — even at the same instant from another machine —
    /// this fails with who and when, and nothing is granted twice. Acting on an order that
    /// changed since `expectedVersion` fails with who changed it. A `rejected` order can
    /// be granted by an admin only; a `disputed` renewal only by settling it (R8).
    ///
    /// A dropped order has no confirmed purchase yet: it is delivered "unconfirmed" and keeps
    /// being verified, so the answer that confirms it claims the purchase (R7).
    ///
    /// - Parameters:
    ///   - orderId: the order to deliver.
    ///   - expectedVersion: the order's `Order/version` as the operator read it.
    ///   - actor: the operator; their role decides what may be granted.
    ///   - reason: why, for the audit log (a ticket number, what was checked); required.
    ///   - now: the time recorded on the grant and the audit entry.
    /// - Returns: the delivered order.
    /// - Throws: `StoreError/alreadyDelivered(orderId:by:at:)`,
    ///   `StoreError/conflict(orderId:changedBy:at:version:)`,
    ///   `StoreError/reasonRequired(action:)`, `StoreError/forbidden(action:role:)`,
    ///   `StoreError/mustSettleDispute(orderId:)`.
    ///
    /// ```swift
    /// let order = try #require(try await store.orders.find("ord_1001"))
    /// try await store.orders.grant(
    ///     orderId: order.orderId, expectedVersion: order.version,
    ///     by: Operator(name: "lin", role: .support), reason: "ticket 4711: paid, Apple timed out")
    /// ```
    @discardableResult
    public func grant(orderId: String, expectedVersion: Int64, by actor: Operator, reason: String, at now: Millis = .now()) async throws -> Order {
        try store.requireOperator(actor, may: .grantOrders, reason: reason)
        return try await store.write(as: actor, now: now) { tx in
            let order = try await tx.requireOrder(orderId)
            if order.state == .delivered { throw try await tx.alreadyDelivered(orderId) }
            guard order.version == expectedVersion else { throw try await tx.conflict(orderId: orderId) }
            if let refusal = OrderPermissions.grantRefusal(order, role: actor.role) { throw refusal }
            return try await store.deliver(tx, order: order, transactionId: order.transactionId, kind: .manual, reason: reason)
        }
    }

    /// Takes back a delivery (an operator's mistake, a fraud finding). The grant stays on
    /// record as revoked; the order becomes `rejected`, from where an admin can grant again.
    ///
    /// - Throws: `StoreError/illegalTransition(orderId:from:to:)` for an order that is not
    ///   delivered, and the same refusals as ``grant(orderId:expectedVersion:by:reason:at:)``.
    @discardableResult
    public func revoke(orderId: String, expectedVersion: Int64, by actor: Operator, reason: String, at now: Millis = .now()) async throws -> Order {
        try store.requireOperator(actor, may: .revokeDeliveries, reason: reason)
        return try await store.write(as: actor, now: now) { tx in
            let order = try await tx.requireOrder(orderId)
            guard order.version == expectedVersion else { throw try await tx.conflict(orderId: orderId) }
            guard order.state == .delivered else { throw StoreError.illegalTransition(orderId: orderId, from: order.state, to: .rejected) }
            return try await tx.apply(OrderRules.revoke(order, by: actor.name, saying: reason), to: order)
        }
    }
}

extension OrderStore {
    func applyCancellation(_ tx: WriteTransaction, transactionId: String, cancelledAt: Millis, reason: Int?, kind: Cancellation) async throws -> Order? {
        try await tx.setCancellation(transactionId: transactionId, at: cancelledAt, reason: reason)
        let stored = try await tx.storedTransaction(transactionId)
        guard let orderId = stored?.orderId else {
            tx.audit(.cancellationUnclaimed(kind), target: .transaction(transactionId), .claimedByNoOrder)
            return nil
        }
        let order = try await tx.requireOrder(orderId)
        guard RefundRule.refundApplies(to: order.state) else {
            tx.audit(.cancellationIgnored(kind), target: .order(orderId), .orderIs(order.state, delivered: false))
            return order
        }
        let why =
            kind == .revoke
            ? Why(.familySharingRevoked, ReasonParticulars(transactionId: transactionId))
            : Why(.refunded(order.marketplace), ReasonParticulars(transactionId: transactionId))
        return try await refund(tx, order: order, why: why)
    }

    func applyRefundReversal(_ tx: WriteTransaction, transactionId: String) async throws -> Order? {
        try await tx.setCancellation(transactionId: transactionId, at: nil, reason: nil)
        let stored = try await tx.storedTransaction(transactionId)
        guard let orderId = stored?.orderId else {
            tx.audit(.refundReversalUnclaimed, target: .transaction(transactionId), .claimedByNoOrder)
            return nil
        }
        let order = try await tx.requireOrder(orderId)
        guard order.state == .refunded else {
            tx.audit(.refundReversalIgnored, target: .order(orderId), .orderIs(order.state, delivered: true))
            return order
        }
        return try await deliver(tx, order: order, transactionId: transactionId, kind: .refundReversed, reason: "Apple reversed the refund")
    }
}

extension AppleAnswers {
    /// R9 from a refund Apple reported without a notification's word on the subscription
    /// (REFUND, REVOKE; for consumables the only source): the order that claimed the
    /// transaction is refunded and its grant revoked. A refund for a transaction no order
    /// claimed is kept on the transaction, so the orphan shows as refunded. A subscription
    /// ends only when the refunded period is its latest: a refund of an earlier one revokes
    /// that period, not the subscription.
    @discardableResult
    public func recordRefund(transactionId: String, cancelledAt: Millis, reason: Int? = nil, kind: Cancellation = .refund, at now: Millis = .now()) async throws
        -> Order?
    {
        try await store.write(as: .system, now: now) { tx in
            let order = try await store.applyCancellation(tx, transactionId: transactionId, cancelledAt: cancelledAt, reason: reason, kind: kind)
            try await store.restateSubscription(tx, changed: transactionId, asOf: cancelledAt, by: kind)
            return order
        }
    }

    /// R9: Apple reversed a refund (REFUND_REVERSED). The cancellation is cleared and a
    /// refunded order is delivered again with a new grant, audited.
    @discardableResult
    public func recordRefundReversed(transactionId: String, at now: Millis = .now()) async throws -> Order? {
        try await store.write(as: .system, now: now) { tx in
            let order = try await store.applyRefundReversal(tx, transactionId: transactionId)
            try await store.restateSubscription(tx, changed: transactionId, asOf: now, by: nil)
            return order
        }
    }
}

extension OrderStore {
    /// Where the subscription of `transactionId` stands after the transaction's refund was
    /// recorded (`cancellation`) or reversed (nil), read from its stored periods as of
    /// `asOf`: refunded or revoked when its latest period is, else as its periods say.
    func restateSubscription(_ tx: WriteTransaction, changed transactionId: String, asOf: Millis, by cancellation: Cancellation?) async throws {
        guard let otid = try await tx.storedTransaction(transactionId)?.transaction.originalTransactionId,
            let stored = try await tx.subscriptionRow(otid)
        else { return }
        let chain = try await tx.chain(otid)
        let latest = chain.max { ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId) }
        let periodEnd = chain.compactMap(\.expiresDate).max()
        let status: SubscriptionStatus =
            if latest.flatMap({ RefundRule.cancellation(of: $0, type: .autoRenewable) }) != nil {
                cancellation == .revoke ? .revoked : .refunded
            } else if stored.status == .refunded || stored.status == .revoked {
                (periodEnd ?? .max) < asOf ? .expired : .active
            } else {
                stored.status
            }
        guard status != stored.status else { return }
        try await tx.updateFacts(otid, SubscriptionFacts(autoRenew: stored.autoRenew, status: status, expiresAt: periodEnd, asOf: asOf, source: .notification))
    }
}
