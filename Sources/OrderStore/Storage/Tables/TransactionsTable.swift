import SQLKit

/// Every transaction Apple showed us; those no order claims are orphans.
extension WriteTransaction {
    /// Upserts what Apple said. A recorded cancellation is never erased by a later answer
    /// that lacks it (R9); only a refund reversal clears it.
    func storeTransactions(_ transactions: [AppleTransaction], environment: AppleEnvironment?) async throws {
        var seen = Set<String>()
        for t in transactions where seen.insert(t.transactionId).inserted {
            try await sql.raw(
                """
                INSERT INTO transactions (transaction_id, original_transaction_id, product_id, quantity, purchase_date,
                  original_purchase_date, expires_date, cancellation_date, cancellation_reason, web_order_line_item_id,
                  ownership_type, environment, first_seen_at, is_upgraded, refunded_share, app_transaction_id, storefront)
                VALUES (\(bind: t.transactionId), \(bind: t.originalTransactionId), \(bind: t.productId), \(bind: t.quantity),
                        \(bind: t.purchaseDate), \(bind: t.originalPurchaseDate), \(bind: t.expiresDate), \(bind: t.cancellationDate),
                        \(bind: t.cancellationReason), \(bind: t.webOrderLineItemId), \(bind: t.ownershipType),
                        \(bind: environment?.rawValue), \(bind: now), \(bind: t.isUpgraded ? 1 : 0), \(bind: t.refundedShare),
                        \(bind: t.appTransactionId), \(bind: t.storefront))
                ON CONFLICT (transaction_id) DO UPDATE SET expires_date = excluded.expires_date,
                  cancellation_date = COALESCE(transactions.cancellation_date, excluded.cancellation_date),
                  cancellation_reason = COALESCE(transactions.cancellation_reason, excluded.cancellation_reason),
                  is_upgraded = excluded.is_upgraded,
                  refunded_share = CASE WHEN excluded.cancellation_date IS NULL THEN transactions.refunded_share ELSE excluded.refunded_share END,
                  app_transaction_id = COALESCE(excluded.app_transaction_id, transactions.app_transaction_id),
                  storefront = COALESCE(excluded.storefront, transactions.storefront)
                """
            ).run()
        }
    }

    func storedTransaction(_ transactionId: String) async throws -> StoredTransaction? {
        try await sql.row("SELECT \(unsafeRaw: StoredTransaction.columns) FROM transactions WHERE transaction_id = \(bind: transactionId)")
            .map(StoredTransaction.init(row:))
    }

    /// The periods of a subscription, oldest first.
    func chain(_ otid: String) async throws -> [AppleTransaction] {
        try await sql.rows(
            """
            SELECT \(unsafeRaw: StoredTransaction.columns) FROM transactions WHERE original_transaction_id = \(bind: otid)
            ORDER BY purchase_date, transaction_id
            """
        ).map { try StoredTransaction(row: $0).transaction }
    }

    func setCancellation(transactionId: String, at date: Millis?, reason: Int?) async throws {
        try await sql.raw(
            """
            UPDATE transactions SET cancellation_date = \(bind: date), cancellation_reason = \(bind: reason),
              refunded_share = CASE WHEN \(bind: date) IS NULL THEN NULL ELSE refunded_share END
            WHERE transaction_id = \(bind: transactionId)
            """
        ).run()
    }

    func claimingOrder(transactionId: String) async throws -> String? {
        try await sql.row("SELECT order_id FROM transactions WHERE transaction_id = \(bind: transactionId)")?.optionalString("order_id")
    }
}
