import OrderDomain
import SQLKit

/// Every transaction Apple showed us; those no order claims are orphans.
extension WriteTransaction {
    /// Upserts what Apple said, the same whatever order Apple's documents arrive in: a
    /// period's end only moves later (an extension), an upgrade stays marked, and a recorded
    /// cancellation is never erased by an answer that lacks it (R9); only a refund reversal
    /// clears it.
    func storeTransactions(_ transactions: [AppleTransaction], environment: AppleEnvironment?) async throws {
        var seen = Set<String>()
        for t in transactions where seen.insert(t.transactionId).inserted {
            try await sql.raw(
                """
                INSERT INTO transactions (transaction_id, original_transaction_id, product_id, quantity, purchase_date,
                  original_purchase_date, expires_date, cancellation_date, cancellation_reason, web_order_line_item_id,
                  ownership_type, environment, first_seen_at, is_upgraded, refunded_share, app_transaction_id, storefront,
                  app_account_token, offer_type, offer_identifier, billing_plan, commitment_payment, commitment_payments, commitment_ends_at,
                  purchase_token)
                VALUES (\(bind: t.transactionId), \(bind: t.originalTransactionId), \(bind: t.productId), \(bind: t.quantity),
                        \(bind: t.purchaseDate), \(bind: t.originalPurchaseDate), \(bind: t.expiresDate), \(bind: t.cancellationDate),
                        \(bind: t.cancellationReason), \(bind: t.webOrderLineItemId), \(bind: t.ownershipType),
                        \(bind: environment?.rawValue), \(bind: now), \(bind: t.isUpgraded ? 1 : 0), \(bind: t.refundedShare),
                        \(bind: t.appTransactionId), \(bind: t.storefront), \(bind: t.appAccountToken), \(bind: t.offer?.type),
                        \(bind: t.offer?.identifier), \(bind: t.billingPlan), \(bind: t.commitment?.payment), \(bind: t.commitment?.payments),
                        \(bind: t.commitment?.endsAt), \(bind: t.purchaseToken))
                ON CONFLICT (transaction_id) DO UPDATE SET
                  expires_date = CASE WHEN transactions.expires_date IS NULL OR excluded.expires_date > transactions.expires_date
                    THEN excluded.expires_date ELSE transactions.expires_date END,
                  cancellation_date = COALESCE(transactions.cancellation_date, excluded.cancellation_date),
                  cancellation_reason = COALESCE(transactions.cancellation_reason, excluded.cancellation_reason),
                  is_upgraded = CASE WHEN excluded.is_upgraded = 1 THEN 1 ELSE transactions.is_upgraded END,
                  refunded_share = CASE WHEN excluded.cancellation_date IS NULL THEN transactions.refunded_share ELSE excluded.refunded_share END,
                  app_transaction_id = COALESCE(excluded.app_transaction_id, transactions.app_transaction_id),
                  storefront = COALESCE(excluded.storefront, transactions.storefront),
                  app_account_token = COALESCE(excluded.app_account_token, transactions.app_account_token),
                  offer_type = COALESCE(excluded.offer_type, transactions.offer_type),
                  offer_identifier = COALESCE(excluded.offer_identifier, transactions.offer_identifier),
                  billing_plan = COALESCE(excluded.billing_plan, transactions.billing_plan),
                  commitment_payment = COALESCE(excluded.commitment_payment, transactions.commitment_payment),
                  commitment_payments = COALESCE(excluded.commitment_payments, transactions.commitment_payments),
                  commitment_ends_at = COALESCE(excluded.commitment_ends_at, transactions.commitment_ends_at),
                  purchase_token = COALESCE(excluded.purchase_token, transactions.purchase_token)
                """
            ).run()
        }
    }

    func storedTransaction(_ transactionId: String) async throws -> StoredTransaction? {
        try await sql.row("SELECT \(unsafeRaw: StoredTransaction.Column.list) FROM transactions WHERE transaction_id = \(bind: transactionId)")
            .map(StoredTransaction.init(row:))
    }

    /// The periods of a subscription, oldest first.
    func chain(_ otid: String) async throws -> [AppleTransaction] {
        try await sql.rows(
            """
            SELECT \(unsafeRaw: StoredTransaction.Column.list) FROM transactions WHERE original_transaction_id = \(bind: otid)
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
