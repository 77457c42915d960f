import OrderDomain
import SQLKit

extension Orders {
    /// Whether `id` reads as Apple's order id (the invoice id on Apple's emailed receipt,
    /// `MK…`): a capital M, then 9 or more capitals and digits.
    public static func looksLikeAppleOrderId(_ id: String) -> Bool {
        id.count >= 10 && id.first == "M" && id.allSatisfy { ($0.isASCII && $0.isUppercase) || $0.isNumber }
    }

    /// Where Apple's order id `appleOrderId` leads: each purchase on the invoice to the order
    /// that claimed it, else to the order that was waiting for it, else to an orphan. An id
    /// the store learned before is answered from the store; an unknown one is asked of Apple
    /// through `lookUp` (production then sandbox, as each app of the store: the id names
    /// none), and the verified transactions Apple answers are kept as Apple's facts, with the
    /// invoice that lists them, before anything is shown. The console, the command line and
    /// the filter all find an invoice through here.
    public func findAppleOrder(_ appleOrderId: String, asking lookUp: AppleOrderLookUp) async throws -> AppleOrderFinding {
        if let known = try await invoice(appleOrderId) { return .found(known) }
        let asked = store.settings.apps.isEmpty ? [store.settings.bundleId] : store.settings.apps
        var failure: String?
        for app in asked {
            for environment in [AppleEnvironment.production, .sandbox] {
                switch await store.asApp(app, { await lookUp(appleOrderId, environment) }) {
                case .unknown: continue
                case .failed(let reason):
                    failure = failure ?? reason
                    continue
                case .purchases(let transactions) where transactions.isEmpty: continue
                case .purchases(let transactions):
                    try await store.write(as: .system) { tx in
                        try await tx.storeTransactions(transactions, environment: environment)
                        for transaction in transactions {
                            try await tx.sql.raw(
                                """
                                INSERT INTO apple_order_ids (apple_order_id, transaction_id, learned_at)
                                VALUES (\(bind: appleOrderId), \(bind: transaction.transactionId), \(bind: tx.now))
                                ON CONFLICT (apple_order_id, transaction_id) DO NOTHING
                                """
                            ).run()
                        }
                        tx.audit(
                            .appleOrderLearned, target: .transaction(transactions[0].transactionId),
                            .appleOrder(appleOrderId, transactions: transactions.map(\.transactionId)))
                    }
                    if let learned = try await invoice(appleOrderId) { return .found(learned) }
                }
            }
        }
        if let failure { return .appleDidNotAnswer(appleOrderId: appleOrderId, reason: failure) }
        return .unknownToApple(appleOrderId: appleOrderId)
    }

    /// The invoice as the store knows it, each purchase with where it leads; nil when the
    /// store never learned the id.
    private func invoice(_ appleOrderId: String) async throws -> AppleInvoice? {
        let skew = store.settings.clockSkew
        return try await store.read { sql in
            let transactions = try await sql.rows(
                """
                SELECT \(unsafeRaw: StoredTransaction.Column.list) FROM transactions WHERE transaction_id IN (
                  SELECT transaction_id FROM apple_order_ids WHERE apple_order_id = \(bind: appleOrderId))
                ORDER BY purchase_date, transaction_id
                """
            ).map(StoredTransaction.init(row:))
            guard !transactions.isEmpty else { return nil }
            var taken = Set<String>()
            var purchases: [InvoicePurchase] = []
            for stored in transactions {
                let lead = try await Self.lead(of: stored, excluding: taken, clockSkew: skew, sql)
                if let order = lead.order { taken.insert(order.orderId) }
                purchases.append(InvoicePurchase(transaction: stored, lead: lead))
            }
            return AppleInvoice(appleOrderId: appleOrderId, purchases: purchases)
        }
    }

    /// Where one purchase leads: the order that claimed it; else the order its
    /// `appAccountToken` names, while that order waits for a purchase; else the open order
    /// for the same product of the token's account or of a game account seen on the same
    /// Apple Account, the one placed last before the purchase (or, if none was, the first
    /// after); else nowhere: an orphan. `taken` are orders another purchase on the same
    /// invoice leads to already.
    private static func lead(of stored: StoredTransaction, excluding taken: Set<String>, clockSkew: Millis, _ sql: any SQLDatabase) async throws
        -> InvoicePurchase.Lead
    {
        let t = stored.transaction
        if let claimed = try await sql.row(
            """
            SELECT \(unsafeRaw: Order.Column.list) FROM orders
            WHERE order_id = \(bind: stored.orderId ?? "") OR (transaction_id = \(bind: t.transactionId))
            ORDER BY order_id LIMIT 1
            """)
        {
            return .claimed(try Order(row: claimed))
        }
        var accounts: [String] = []
        if let token = t.appAccountToken, let named = try await sql.row("SELECT \(unsafeRaw: Order.Column.list) FROM orders WHERE order_id = \(bind: token)") {
            let order = try Order(row: named)
            if order.waitsForPurchase, order.productId == t.productId, !taken.contains(order.orderId) { return .waiting(order, .appAccountToken) }
            accounts.append(order.accountId)
        }
        if let appTransaction = t.appTransactionId {
            accounts += try await sql.rows(
                """
                SELECT DISTINCT o.account_id FROM transactions x JOIN orders o ON o.order_id = x.order_id
                WHERE x.app_transaction_id = \(bind: appTransaction)
                """
            ).map { try $0.string("account_id") }
        }
        var open: [Order] = []
        for account in Set(accounts).sorted() {
            open += try await sql.rows(
                """
                SELECT \(unsafeRaw: Order.Column.list) FROM orders
                WHERE account_id = \(bind: account) AND product_id = \(bind: t.productId) ORDER BY created_at, order_id
                """
            ).map(Order.init(row:)).filter { $0.waitsForPurchase && !taken.contains($0.orderId) }
        }
        let placedBefore = open.filter { $0.createdAt <= t.purchaseDate + clockSkew }.max { ($0.createdAt, $0.orderId) < ($1.createdAt, $1.orderId) }
        let placedAfter = open.min { ($0.createdAt, $0.orderId) < ($1.createdAt, $1.orderId) }
        return (placedBefore ?? placedAfter).map { .waiting($0, .openOrder) } ?? .orphan
    }
}
