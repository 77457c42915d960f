import OrderDomain

extension OrderStore {
    /// An order an operator delivered before Apple confirmed it meets Apple's answer (R7):
    /// the answer that confirms it claims the purchase and links it to the grant. If the
    /// purchase already paid for another order, nothing is taken back: the order is flagged
    /// "two deliveries for one purchase", naming both, for an operator.
    func confirmDelivery(_ tx: WriteTransaction, order: Order, submissionId: Int64?, report: VerificationReport, outcome: inout VerificationOutcome)
        async throws
    {
        guard let (purchase, content) = try await answerHolds(tx, order: order, as: order, submissionId: submissionId, report: report, outcome: &outcome)
        else { return }
        let transaction = purchase.transaction
        if case .replay(let holder, let holderAccount, let key) = try await tx.claim(transaction, type: purchase.type, for: order) {
            let decision = OrderRules.doubleDelivery(order, heldBy: PurchaseHolder(order: holder, account: holderAccount, key: key))
            return try await apply(tx, decision, to: order, outcome: &outcome)
        }
        var ownership: OwnershipRule.Decision?
        if purchase.type == .autoRenewable {
            ownership = try await decideOwnership(tx, order: order, transaction: transaction, content: content, source: FactSource(report.method))
            outcome.ownership = ownership
        }
        let decision = OrderRules.confirmed(order, by: transaction, environment: report.environment, ownership: ownership)
        outcome.order = try await tx.apply(decision, to: order)
    }
}

extension Orders {
    /// Orders flagged "two deliveries for one purchase", newest first: each names the other order.
    public func deliveryConflicts(limit: Int = 100) async throws -> [Order] {
        try await store.read { sql in
            try await sql.rows(
                """
                SELECT \(unsafeRaw: Order.Column.list) FROM orders WHERE delivery_conflict IS NOT NULL
                ORDER BY state_changed_at DESC, order_id DESC LIMIT \(literal: limit)
                """
            ).map(Order.init(row:))
        }
    }
}
