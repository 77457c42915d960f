import OrderDomain
import SQLKit

/// Which orders a list shows: every field set narrows it. Each combination served reads one
/// index range in list order; the one that is not is refused (``refusal``), never narrowed
/// silently.
public struct OrderFilter: Sendable, Equatable {
    public var state: OrderState?
    public var accountId: String?
    public var productId: String?
    public var environment: AppleEnvironment?
    /// Placed at or after this instant (`order list --since`).
    public var createdSince: Millis?
    /// Placed before this instant (`--until`).
    public var createdBefore: Millis?
    /// Placed in this app (bundle id): `app:` in the console, `--app` on the command line.
    public var app: String?
    /// Paid in this store: `store:` in the console, `--store` on the command line.
    public var marketplace: Marketplace?

    public init(
        state: OrderState? = nil, accountId: String? = nil, productId: String? = nil, environment: AppleEnvironment? = nil,
        createdSince: Millis? = nil, createdBefore: Millis? = nil, app: String? = nil, marketplace: Marketplace? = nil
    ) {
        self.app = app
        self.marketplace = marketplace
        self.state = state
        self.accountId = accountId
        self.productId = productId
        self.environment = environment
        self.createdSince = createdSince
        self.createdBefore = createdBefore
    }

    /// Why this combination is not served, or nil. The one place that decides: every
    /// combination served reads one index range in list order. An account narrows with
    /// anything (an account's orders are few); state, product and environment combine two
    /// at a time (an index each pair); all three need an account too. An app and a store
    /// each narrow alone or with a state.
    public var refusal: String? {
        // An app keys its own range, and its states'; a product names its app already, and
        // an app its store.
        if app != nil, environment != nil, accountId == nil, productId == nil {
            return "app and env together are not served by an index: add acct: or product:, or drop one of them"
        }
        if marketplace != nil, environment != nil, accountId == nil, productId == nil, app == nil {
            return "store and env together are not served by an index: add acct:, product: or app:, or drop one of them"
        }
        let narrowing = [state != nil, productId != nil, environment != nil].filter { $0 }.count
        guard accountId == nil, narrowing == 3 else { return nil }
        return "state, product and env together are not served by an index: add acct:, or drop one of them"
    }

    /// The conditions, each on a column the chosen index keys.
    var conditions: [SQLQueryString] {
        var conditions: [SQLQueryString] = []
        if let state { conditions.append("state = \(bind: state.rawValue)") }
        if let accountId { conditions.append("account_id = \(bind: accountId)") }
        if let productId { conditions.append("product_id = \(bind: productId)") }
        if let environment { conditions.append("environment = \(bind: environment.rawValue)") }
        if let app { conditions.append("app = \(bind: app)") }
        if let marketplace { conditions.append("marketplace = \(bind: marketplace.rawValue)") }
        // Every index a filter uses keys `created_at` after its equalities: a time range
        // is a narrower range of the same index.
        if let createdSince { conditions.append("created_at >= \(bind: createdSince)") }
        if let createdBefore { conditions.append("created_at < \(bind: createdBefore)") }
        return conditions
    }
}

/// A position in a newest-first list: the last row's key. Pages never use OFFSET, so
/// page 1000 costs what page 1 costs.
public struct OrderCursor: Sendable, Equatable, Hashable {
    public var createdAt: Millis
    public var orderId: String

    /// The page that continues after `order` (newest first).
    public init(after order: Order) {
        createdAt = order.createdAt
        orderId = order.orderId
    }

    init(createdAt: Millis, orderId: String) {
        self.createdAt = createdAt
        self.orderId = orderId
    }
}

public struct Page<Item: Sendable>: Sendable {
    public var items: [Item]
    /// Where the next page starts; nil on the last page.
    public var next: OrderCursor?
}

extension Orders {
    /// Orders newest first, narrowed by `filter`, starting after `cursor`.
    ///
    /// - Throws: `StoreError/unservedFilter(_:)` for a combination no index serves, saying
    ///   what to add or drop.
    ///
    /// ```swift
    /// var page = try await store.orders.page(OrderFilter(state: .rejected, accountId: "player_42"))
    /// while let next = page.next { page = try await store.orders.page(OrderFilter(state: .rejected, accountId: "player_42"), after: next) }
    /// ```
    public func page(_ filter: OrderFilter = OrderFilter(), after cursor: OrderCursor? = nil, limit: Int = 50) async throws -> Page<Order> {
        if let refusal = filter.refusal { throw StoreError.unservedFilter(refusal) }
        // An account's orders are few: its index, whatever else narrows. SQLite without
        // statistics (a store never analyzed) would otherwise walk a whole state's range.
        let source: SQLQueryString = filter.accountId != nil && store.dialect == .sqlite ? "orders INDEXED BY orders_by_account" : "orders"
        var query: SQLQueryString = "SELECT \(unsafeRaw: Order.Column.list) FROM \(source) WHERE 1 = 1"
        for condition in filter.conditions { query = query + " AND " + condition }
        if let cursor {
            query = query + " AND (created_at, order_id) < (\(bind: cursor.createdAt), \(bind: cursor.orderId))"
        }
        query = query + " ORDER BY created_at DESC, order_id DESC LIMIT \(literal: limit)"
        let finalQuery = query
        let items = try await store.read { sql in try await sql.rows(finalQuery).map(Order.init(row:)) }
        let next = items.count == limit ? items.last.map { OrderCursor(createdAt: $0.createdAt, orderId: $0.orderId) } : nil
        return Page(items: items, next: next)
    }

    /// The order with this id, or nil.
    public func find(_ orderId: String) async throws -> Order? {
        try await store.read { sql in try await sql.order(orderId) }
    }

    /// Exact lookup by any id an operator may be handed: order id, transaction id (the
    /// order's own, or one it claimed, such as a renewal), original transaction id, account
    /// id, Apple's appTransactionId, Google Play's purchase token or obfuscated account id,
    /// or only the kind `kind` names (Google's `GPA.…` order ids are transaction ids). One
    /// statement a round (`LookupQuery`): each kind is an index probe, and the matches come
    /// back most specific kind first, newest first within a kind. On PostgreSQL each round's
    /// statement is prepared once per connection, so a lookup of an everyday id is one round
    /// trip with nothing to parse or plan.
    ///
    /// ```swift
    /// // A player's ticket quotes a transaction id from their Apple receipt email.
    /// let orders = try await store.orders.lookup("2000000123456789")
    /// ```
    public func lookup(_ id: String, kind: IdKind = .any, limit: Int = 50) async throws -> [Order] {
        let rows = try await store.readConnection { db -> [Row] in
            // Round by round, a later one only when those before found nothing: an id that
            // is both an everyday id and a rare kind's finds the everyday kind's orders.
            // Every probe costs each lookup its time (the appTransactionId's alone cost 0.1–0.3
            // ms at p99 on SQLite, 1M orders), and most lookups are of everyday ids.
            for round in kind.rounds {
                let found: [Row]
                switch round {
                case IdKind.everyday: found = try await db.rows(EverydayIdLookup(id: id, limit: limit))
                case IdKind.token: found = try await db.rows(TokenIdLookup(id: id, limit: limit))
                case IdKind.rare: found = try await db.rows(RareIdLookup(id: id, limit: limit))
                default: found = try await db.sql.rows(LookupQuery.bound(kinds: round, id: id, limit: limit))
                }
                if !found.isEmpty { return found }
            }
            return []
        }
        var found: [Order] = []
        var seen = Set<String>()
        for row in rows {
            let order = try Order(row: row)
            if seen.insert(order.orderId).inserted { found.append(order) }
            if found.count == limit { break }
        }
        return found
    }
}
