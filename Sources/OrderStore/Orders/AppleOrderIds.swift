import SQLKit

extension Orders {
    /// Whether `id` reads as Apple's order id (the invoice id on Apple's emailed receipt,
    /// `MK…`): a capital M, then 9 or more capitals and digits.
    public static func looksLikeAppleOrderId(_ id: String) -> Bool {
        id.count >= 10 && id.first == "M" && id.allSatisfy { ($0.isASCII && $0.isUppercase) || $0.isNumber }
    }

    /// The orders that claimed a transaction Apple's order `appleOrderId` covers. Known ids
    /// are answered from the store; an unknown one is asked of Apple through `lookUp`
    /// (Look Up Order ID, production then sandbox, as each app of the store: the id names
    /// none), and what Apple answers is kept for the next search. Empty when Apple knows no
    /// such order or no order claims its purchases.
    public func withAppleOrderId(
        _ appleOrderId: String, lookUp: @Sendable (_ appleOrderId: String, AppleEnvironment) async -> [String]?
    ) async throws -> [Order] {
        var found = try await ordersOfKnownAppleOrderId(appleOrderId)
        guard found.isEmpty else { return found }
        let asked = store.settings.apps.isEmpty ? [store.settings.bundleId] : store.settings.apps
        for (app, environment) in asked.flatMap({ app in [AppleEnvironment.production, .sandbox].map { (app, $0) } }) {
            guard let transactionIds = await store.asApp(app, { await lookUp(appleOrderId, environment) }), !transactionIds.isEmpty else { continue }
            try await store.write(as: .system) { tx in
                for tid in transactionIds {
                    try await tx.sql.raw(
                        """
                        INSERT INTO apple_order_ids (apple_order_id, transaction_id, learned_at) VALUES (\(bind: appleOrderId), \(bind: tid), \(bind: tx.now))
                        ON CONFLICT (apple_order_id, transaction_id) DO NOTHING
                        """
                    ).run()
                }
            }
            found = try await ordersOfKnownAppleOrderId(appleOrderId)
            break
        }
        return found
    }

    private func ordersOfKnownAppleOrderId(_ appleOrderId: String) async throws -> [Order] {
        try await store.read { sql in
            try await sql.rows(
                """
                SELECT \(Order.columns) FROM orders WHERE order_id IN (
                  SELECT t.order_id FROM apple_order_ids a JOIN transactions t ON t.transaction_id = a.transaction_id
                  WHERE a.apple_order_id = \(bind: appleOrderId) AND t.order_id IS NOT NULL
                  UNION SELECT o.order_id FROM apple_order_ids a JOIN orders o ON o.transaction_id = a.transaction_id
                  WHERE a.apple_order_id = \(bind: appleOrderId))
                ORDER BY created_at DESC, order_id DESC
                """
            ).map(Order.init(row:))
        }
    }
}
