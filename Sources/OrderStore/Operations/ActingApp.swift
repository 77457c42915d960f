import OrderDomain
import SQLKit

extension OrderStore {
    /// The app of the product a transaction (or a subscription, by its original id) is of.
    public func app(ofTransaction transactionId: String) async throws -> String {
        let app = try await read { sql in
            try await sql.row(
                """
                SELECT p.app FROM transactions t JOIN products p ON p.product_id = t.product_id
                WHERE t.transaction_id = \(bind: transactionId) OR t.original_transaction_id = \(bind: transactionId) LIMIT 1
                """)?.optionalString("app")
        }
        return app ?? settings.bundleId
    }

    /// The app that sells `productId`.
    func app(ofProduct productId: String) async throws -> String {
        settings.app(of: try await catalogue.product(productId))
    }

    /// `body` (a call to Apple) as `app`'s.
    func asApp<T: Sendable>(_ app: String, _ body: () async -> T) async -> T {
        await ActingApp.$bundleId.withValue(app) { await body() }
    }
}
