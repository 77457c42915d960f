import OrderDomain
import SQLKit

extension OrderStore {
    /// What the store's games sell: products with their app, type, price and what the game
    /// gives, retired ones kept; and the apps (games) the store serves.
    public var catalogue: Catalogue { Catalogue(store: self) }
}

/// The catalogue of one store (``OrderStore/catalogue``).
public struct Catalogue: Sendable {
    let store: OrderStore

    /// Adds or updates a product in the catalogue, audited as `product.upsert`.
    ///
    /// - Parameters:
    ///   - product: the product id Apple knows, its `ProductType` (which decides replay
    ///     keys, R7, and ownership, R8), display name and price.
    ///   - actor: who changes the catalogue; the system when a configuration file is loaded.
    ///   - now: the time recorded on the audit entry.
    public func upsert(_ product: Product, by actor: Operator = .system, at now: Millis = .now()) async throws {
        let product = try store.withApp(product)
        try await store.write(as: actor, now: now) { tx in
            try await tx.saveProduct(product)
            tx.audit(.productUpsert, target: .product(product.productId), .product(product))
        }
    }

    /// Adds a product to the catalogue (`replacing` false) or changes one (`replacing` true),
    /// admins only, audited with the reason. Retirement is ``retire(_:by:reason:at:)``'s.
    ///
    /// - Throws: `StoreError/invalid(_:)` for what `Product/problem` names, for an id
    ///   already there (adding) or not there (changing), and for a type change once orders name it.
    @discardableResult
    public func define(_ product: Product, replacing: Bool, by actor: Operator, reason: String, at now: Millis = .now()) async throws -> Product {
        try store.requireOperator(actor, may: .changeCatalogue, reason: reason, minimum: .admin)
        if let problem = product.problem { throw StoreError.invalid(.product(productId: product.productId, problem: problem)) }
        let product = try store.withApp(product)
        try await store.write(as: actor, now: now) { tx in
            let existing = try await tx.sql.product(product.productId)
            if replacing {
                guard let existing else { throw StoreError.invalid(.productNotInCatalogue(product.productId)) }
                if existing.app != product.app, try await tx.sql.row("SELECT 1 AS n FROM orders WHERE product_id = \(bind: product.productId) LIMIT 1") != nil {
                    throw StoreError.invalid(.productAppFixed(productId: product.productId, app: existing.app ?? store.settings.bundleId))
                }
                if existing.type != product.type,
                    try await tx.sql.row("SELECT 1 AS n FROM orders WHERE product_id = \(bind: product.productId) LIMIT 1") != nil
                {
                    throw StoreError.invalid(.productTypeFixed(productId: product.productId, type: existing.type))
                }
            } else if existing != nil {
                throw StoreError.productExists(product.productId)
            }
            var stored = product
            stored.retiredAt = existing?.retiredAt
            try await tx.saveProduct(stored)
            tx.audit(
                replacing ? .productUpdate : .productAdd, target: .product(product.productId), reason: reason,
                .product(stored))
        }
        return product
    }

    /// Retires a product: no new order may name it; the orders that do keep it. Admins, audited.
    public func retire(_ productId: String, by actor: Operator, reason: String, at now: Millis = .now()) async throws {
        try store.requireOperator(actor, may: .changeCatalogue, reason: reason, minimum: .admin)
        try await store.write(as: actor, now: now) { tx in
            guard var product = try await tx.sql.product(productId) else { throw StoreError.unknownProduct(productId) }
            guard product.retiredAt == nil else { throw StoreError.invalid(.productRetiredAlready(productId)) }
            product.retiredAt = now
            try await tx.saveProduct(product)
            tx.audit(.productRetire, target: .product(productId), reason: reason)
        }
    }

    /// The catalogue by product id, retired products included.
    public func products() async throws -> [Product] {
        try await store.read { sql in
            try await sql.rows("SELECT \(unsafeRaw: Product.Column.list) FROM products ORDER BY product_id").map(Product.init(row:))
        }
    }

    /// One product, or nil.
    public func product(_ productId: String) async throws -> Product? {
        try await store.read { sql in try await sql.product(productId) }
    }

    /// Products Apple sold that the catalogue does not list, with what the store kept of them
    /// (a notification or an answer about one is kept, its transaction an orphan until an
    /// order claims it): an admin adds them, or learns the game sells one it should not.
    /// Reads every transaction: for `iapdesk product unknown`, not for a screen's refresh.
    public func unknown(limit: Int = 100) async throws -> [UnknownProduct] {
        try await store.read { sql in
            try await sql.rows(
                """
                SELECT t.product_id, COUNT(*) AS n, SUM(CASE WHEN t.order_id IS NULL THEN 1 ELSE 0 END) AS orphans,
                       MIN(t.first_seen_at) AS first_seen, MAX(t.first_seen_at) AS last_seen
                FROM transactions t LEFT JOIN products p ON p.product_id = t.product_id
                WHERE p.product_id IS NULL GROUP BY t.product_id ORDER BY n DESC, t.product_id LIMIT \(literal: limit)
                """
            ).map { row in
                UnknownProduct(
                    productId: try row.string("product_id"), transactions: try row.int("n"), orphans: try row.int("orphans"),
                    firstSeen: try row.int64("first_seen"), lastSeen: try row.int64("last_seen"))
            }
        }
    }
}

extension WriteTransaction {
    func saveProduct(_ product: Product) async throws {
        try await sql.raw(
            """
            INSERT INTO products (product_id, type, display_name, price_minor, currency, subscription_group, group_level, duration_days, retired_at, app, gives)
            VALUES (\(bind: product.productId), \(bind: product.type.rawValue), \(bind: product.displayName), \(bind: product.priceMinor),
                    \(bind: product.currency), \(bind: product.subscriptionGroup), \(bind: product.groupLevel), \(bind: product.durationDays),
                    \(bind: product.retiredAt), \(bind: product.app), \(bind: product.gives.isEmpty ? nil : product.givesText))
            ON CONFLICT (product_id) DO UPDATE SET type = excluded.type, display_name = excluded.display_name,
              price_minor = excluded.price_minor, currency = excluded.currency, subscription_group = excluded.subscription_group,
              group_level = excluded.group_level, duration_days = excluded.duration_days, retired_at = excluded.retired_at, app = excluded.app,
              gives = excluded.gives
            """
        ).run()
    }
}

extension Catalogue {
    /// Each product's type, by product id: what a screen needs to offer only what applies.
    public func types() async throws -> [String: ProductType] {
        try await store.read { sql in try await sql.productTypes() }
    }
}
