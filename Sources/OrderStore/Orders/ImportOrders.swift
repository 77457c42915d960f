import OrderDomain
import SQLKit

/// One order from a studio's own history (`iapdesk import orders`).
public struct ImportedOrder: Sendable, Equatable {
    public var orderId: String
    public var accountId: String
    public var productId: String
    public var quantity: Int
    public var createdAt: Millis
    /// The studio's table says the game gave it: it is recorded as delivered, and the game
    /// is not told again.
    public var delivered: Bool
    /// Apple's transaction that paid for it, when the studio kept it.
    public var transactionId: String?

    public init(orderId: String, accountId: String, productId: String, quantity: Int = 1, createdAt: Millis, delivered: Bool, transactionId: String? = nil) {
        self.orderId = orderId
        self.accountId = accountId
        self.productId = productId
        self.quantity = quantity
        self.createdAt = createdAt
        self.delivered = delivered
        self.transactionId = transactionId
    }
}

/// What importing one order did.
public enum ImportOutcome: String, Sendable, Equatable {
    /// Placed, waiting for its receipt (or its submitted receipt's verification).
    case placed
    /// Recorded as delivered, its event confirmed as the game's own past delivery.
    case delivered
    /// An order with its id is there already: a second run skips it (the import resumes).
    case alreadyThere = "already there"
}

extension Orders {
    /// An order from a studio's history, admins only, audited with the reason. A delivered one
    /// gets its grant (R11: once) and its transaction's claim (R7: a purchase another order
    /// holds is refused), and its event is confirmed at once: the game gave it long ago and
    /// must not give it again. Nothing about an order already there changes.
    public func `import`(_ row: ImportedOrder, by actor: Operator, reason: String, at now: Millis = .now()) async throws -> ImportOutcome {
        try store.requireOperator(actor, may: .importOrders, reason: reason, minimum: .admin)
        guard !row.orderId.isEmpty, !row.accountId.isEmpty, row.quantity > 0 else {
            throw StoreError.invalid(.importedOrderIncomplete)
        }
        return try await store.write(as: actor, now: now) { tx in
            guard let product = try await tx.sql.product(row.productId) else { throw StoreError.unknownProduct(row.productId) }
            // A delivered order comes in as paid (the studio's table is the evidence), so that
            // the grant below is the state machine's ordinary step.
            guard
                try await tx.insertOrder(
                    orderId: row.orderId, accountId: row.accountId, productId: row.productId, quantity: row.quantity, at: row.createdAt,
                    state: row.delivered ? .receiptReceived : .pendingPayment, by: actor.name)
            else { return .alreadyThere }
            tx.audit(.orderImport, target: .order(row.orderId), reason: reason, .imported(placedAt: row.createdAt, accountId: row.accountId))
            guard row.delivered else { return .placed }
            var order = try await tx.requireOrder(row.orderId)
            if let tid = row.transactionId {
                (order.transactionId, order.originalTransactionId) = (tid, tid)
                let purchase = AppleTransaction(
                    transactionId: tid, originalTransactionId: tid, productId: row.productId, quantity: row.quantity, purchaseDate: row.createdAt)
                try await tx.storeTransactions([purchase], environment: nil)
                if case .replay(let holder, _, _) = try await tx.claim(purchase, type: product.type, for: order) {
                    throw StoreError.transactionTaken(transactionId: tid, orderId: holder)
                }
            }
            _ = try await store.deliver(tx, order: order, transactionId: row.transactionId, kind: .manual, reason: reason)
            // The game gave it when it happened: confirmed now, never sent; and no R4 retry
            // for a delivery Apple was never asked about.
            try await tx.sql.raw(
                "UPDATE events SET confirmed_at = \(bind: now), confirmed_via = 'import' WHERE order_id = \(bind: row.orderId) AND confirmed_at IS NULL"
            ).run()
            try await tx.sql.raw("UPDATE orders SET next_retry_at = NULL WHERE order_id = \(bind: row.orderId)").run()
            return .delivered
        }
    }
}
