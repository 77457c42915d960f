import OrderDomain
import SQLKit

extension Catalogue {
    /// Adds an app to the store (a studio's next game, or a game's app in the other store),
    /// or changes its name, Apple id or game: admins only, audited with the reason. Its
    /// products, orders and notifications are kept apart by its id; the configuration gives
    /// its credentials (Apple's per app, Google's service account for its packages).
    public func addApp(_ app: StoreApp, by actor: Operator, reason: String, at now: Millis = .now()) async throws {
        try store.requireOperator(actor, may: .addApps, reason: reason, minimum: .admin)
        if let problem = app.problem { throw StoreError.invalid(.app(problem: problem)) }
        try await store.write(as: actor, now: now) { tx in
            if app.game != app.bundleId, try await tx.sql.row("SELECT 1 AS n FROM apps WHERE bundle_id = \(bind: app.game)") == nil {
                throw StoreError.invalid(.app(problem: .gameNotServed(app.game)))
            }
            let existed =
                try await tx.sql.row(
                    "SELECT 1 AS n FROM apps WHERE bundle_id = \(bind: app.bundleId) AND marketplace = \(bind: app.marketplace.rawValue)") != nil
            try await tx.sql.raw(
                """
                INSERT INTO apps (bundle_id, marketplace, game, name, apple_app_id, added_at)
                VALUES (\(bind: app.bundleId), \(bind: app.marketplace.rawValue), \(bind: app.game), \(bind: app.name), \(bind: app.appleAppId), \(bind: now))
                ON CONFLICT (bundle_id, marketplace) DO UPDATE SET name = COALESCE(excluded.name, apps.name),
                  apple_app_id = COALESCE(excluded.apple_app_id, apps.apple_app_id), game = excluded.game
                """
            ).run()
            tx.audit(existed ? .appUpdate : .appAdd, target: .app(app.bundleId), reason: reason, .app(app))
        }
    }

    /// The apps the store serves, in the order they were added, with how many products each
    /// game sells (a game's products are sold by each of its apps).
    public func apps() async throws -> [(app: StoreApp, products: Int)] {
        try await store.read { sql in
            try await sql.rows(
                """
                SELECT a.bundle_id, a.marketplace, a.game, a.name, a.apple_app_id, a.added_at,
                  (SELECT COUNT(*) FROM products p WHERE p.app = a.game) AS products
                FROM apps a ORDER BY a.added_at, a.bundle_id, a.marketplace
                """
            ).map { row in
                (
                    StoreApp(
                        bundleId: try row.string("bundle_id"), marketplace: try row.value("marketplace", as: Marketplace.self), game: try row.string("game"),
                        name: try row.optionalString("name"), appleAppId: try row.optionalInt64("apple_app_id"), addedAt: try row.int64("added_at")),
                    try row.int("products")
                )
            }
        }
    }

}

extension OrderStore {
    /// The app a command names (`--app`), else the store's first; one the store does not
    /// serve is refused, `what` (a product id) leading the message when given.
    public func servedApp(_ named: String?, for what: String? = nil) throws -> String {
        let app = named ?? settings.bundleId
        guard settings.apps.isEmpty || settings.apps.contains(app) else {
            throw StoreError.unknownApp(app, served: settings.apps, subject: what)
        }
        return app
    }

    /// The product with its app decided: its own, which must be one the store serves, else
    /// the store's only app. A store of several apps needs to be told which.
    public func withApp(_ product: Product) throws -> Product {
        var product = product
        if let app = product.app {
            _ = try servedApp(app, for: product.productId)
        } else {
            guard settings.apps.count <= 1 else {
                throw StoreError.invalid(.productAppUnnamed(productId: product.productId, served: settings.apps))
            }
            product.app = settings.bundleId
        }
        return product
    }
}
