import OrderDomain

extension Orders {
    /// Attaches a transaction Apple knows but no order claimed (an orphan, [S4] 未知订单)
    /// to the order it paid for, then delivers it. It passes the same R5 checks as a
    /// receipt (product, quantity, bought after the order unless it is a renewal, not
    /// refunded) and the same claim (R7), so an orphan can't be attached twice; a
    /// subscription's renewal goes through R8 like any other.
    @discardableResult
    public func attach(transactionId: String, to orderId: String, expectedVersion: Int64, by actor: Operator, reason: String, at now: Millis = .now())
        async throws -> Order
    {
        try store.requireOperator(actor, may: .attachOrphans, reason: reason)
        return try await store.write(as: actor, now: now) { tx in
            let order = try await tx.requireOrder(orderId)
            guard order.version == expectedVersion else { throw try await tx.conflict(orderId: orderId) }
            guard let stored = try await tx.storedTransaction(transactionId) else { throw StoreError.notFound(kind: .transaction, id: transactionId) }
            // Google's purchase is attached through Google (asked again, acknowledged there).
            if stored.transaction.marketplace != .appStore { throw StoreError.notPaidIn(.appStore, id: "transaction \(transactionId)") }
            if let owner = stored.orderId {
                throw StoreError.transactionTaken(transactionId: transactionId, orderId: owner)
            }
            guard order.waitsForPurchase else {
                throw StoreError.hasTransaction(orderId: orderId, state: order.state)
            }
            let types = try await tx.sql.productTypes()
            let type = types[order.productId] ?? .consumable
            let transaction = stored.transaction
            // A stored transaction keeps no bundle id: it is the app of the product it names,
            // which the product check below compares with the order's.
            let app = store.settings.expectedApp(of: order, product: try await tx.sql.product(order.productId))
            let content = AppleReceiptContent(bundleId: app, inApp: [transaction])
            let checks = ReceiptChecks.run(
                order: order, productType: type, expectedBundleId: app, content: content,
                picked: transaction, clockSkew: store.settings.clockSkew)
            if let failed = ReceiptChecks.firstFailure(checks) {
                throw StoreError.checkFailed(orderId: orderId, check: failed)
            }
            let claim = try await tx.claim(transaction, type: type, for: order)
            if let holder = claim.replayHolder { throw StoreError.replay(orderId: orderId, holder: holder) }

            var next = order
            next.transactionId = transaction.transactionId
            next.originalTransactionId = transaction.originalTransactionId
            next.environment = stored.environment
            next.state = .receiptReceived
            next.nextRetryAt = nil
            var current = try await tx.save(next, previous: order, action: .orphanAttach, reason: reason, .attached(transactionId: transactionId))
            if type == .autoRenewable {
                let chain = try await tx.chain(transaction.originalTransactionId)
                let decision = try await store.decideOwnership(
                    tx, order: current, transaction: transaction,
                    content: AppleReceiptContent(bundleId: app, inApp: chain), source: .operator)
                if case .ownerKeeps = decision { return try await tx.apply(OrderRules.dispute(current, ownership: decision), to: current) }
            }
            current = try await store.deliver(tx, order: current, transactionId: transaction.transactionId, kind: .manual, reason: reason)
            return current
        }
    }
}
