import OrderDomain
import SQLKit

/// What a backfill from Apple's Transaction History added to the store.
public struct Backfill: Sendable, Equatable {
    /// Transactions Apple listed.
    public var listed: Int
    /// Of them, the ones the store did not know before.
    public var new: Int
    /// Of them, the ones no order claims (orphans, for `:orphans` to attach).
    public var unclaimed: Int
}

extension AppleAnswers {
    /// Records what Apple's Transaction History says of a purchase (a studio arriving with
    /// history, a transaction support was told of): every transaction as Apple signed it,
    /// cancellations included (a recorded one is never erased). No order changes by this
    /// alone: those no order claims become orphans an operator attaches, and a claimed
    /// order's state is the rules' (a re-verify). Admins, audited with the reason.
    public func recordHistory(
        _ transactions: [AppleTransaction], environment: AppleEnvironment, asked transactionId: String, by actor: Operator, reason: String,
        at now: Millis = .now()
    ) async throws -> Backfill {
        try store.requireOperator(actor, may: .backfillFromApple, reason: reason, minimum: .admin)
        let ids = transactions.map(\.transactionId)
        return try await store.write(as: actor, now: now) { tx in
            let known = ids.isEmpty ? 0 : try await tx.sql.row("SELECT COUNT(*) AS n FROM transactions WHERE transaction_id IN (\(binds: ids))")?.int("n") ?? 0
            try await tx.storeTransactions(transactions, environment: environment)
            let unclaimed =
                ids.isEmpty
                ? 0 : try await tx.sql.row("SELECT COUNT(*) AS n FROM transactions WHERE transaction_id IN (\(binds: ids)) AND order_id IS NULL")?.int("n") ?? 0
            let result = Backfill(listed: Set(ids).count, new: Set(ids).count - known, unclaimed: unclaimed)
            tx.audit(
                .backfill, target: .transaction(transactionId), reason: reason,
                .backfill(environment: environment, listed: result.listed, new: result.new, unclaimed: result.unclaimed))
            return result
        }
    }
}

extension AppleAnswers {
    /// Purchases orders claimed whose Apple Account the store does not know: verifyReceipt
    /// names no `appTransactionId`, so "same Apple Account" (R8's question) cannot be asked of
    /// them until Get App Transaction Info is. One transaction per purchase, oldest first.
    public func purchasesWithoutAppleAccount(limit: Int = 100) async throws -> [(transactionId: String, environment: AppleEnvironment)] {
        try await store.read { sql in
            try await sql.rows(
                """
                SELECT MIN(transaction_id) AS transaction_id, MIN(environment) AS environment FROM transactions
                WHERE order_id IS NOT NULL AND app_transaction_id IS NULL
                GROUP BY original_transaction_id ORDER BY MIN(first_seen_at) LIMIT \(literal: limit)
                """
            ).map { (try $0.string("transaction_id"), try $0.optionalValue("environment", as: AppleEnvironment.self) ?? .production) }
        }
    }

    /// Records the Apple Account (its `appTransactionId`, from Get App Transaction Info) of
    /// the purchase `transactionId` belongs to: every transaction of that purchase. Admins,
    /// audited.
    public func recordAppleAccount(_ appTransactionId: String, ofPurchaseWith transactionId: String, by actor: Operator, reason: String) async throws {
        try store.requireOperator(actor, may: .backfillFromApple, reason: reason, minimum: .admin)
        try await store.write(as: actor) { tx in
            try await tx.sql.raw(
                """
                UPDATE transactions SET app_transaction_id = \(bind: appTransactionId)
                WHERE app_transaction_id IS NULL AND original_transaction_id =
                  (SELECT original_transaction_id FROM transactions WHERE transaction_id = \(bind: transactionId))
                """
            ).run()
            tx.audit(.backfillAppleAccount, target: .transaction(transactionId), reason: reason, .appleAccount(appTransactionId: appTransactionId))
        }
    }
}
