import OrderDomain
import SQLKit

extension Outbox {
    /// For a history loaded rather than lived (the demo's synthetic orders): each delivered
    /// order that has no event gets the `delivered` event the game was sent when it was
    /// granted, confirmed then (`confirmed_via` `history`), never sent again; so an old order
    /// reads as told, as it was. A batch a transaction; returns how many were written.
    ///
    /// Set by set, not order by order: a batch's products, subscriptions and purchases are
    /// read in one statement each and its events written in a few multi-row inserts, so the
    /// demo's 20,000 orders cost a second or so rather than four statements each (9 s in a
    /// debug build, the demo's first frame waiting on it).
    @discardableResult
    public func recordConfirmedHistory(batch: Int = 2_000) async throws -> Int {
        var written = 0
        while true {
            let count = try await store.write(as: .system) { tx -> Int in
                let delivered = try await tx.sql.rows(
                    """
                    SELECT \(unsafeRaw: Order.Column.list),
                      (SELECT g.granted_at FROM grants g WHERE g.order_id = orders.order_id ORDER BY g.id LIMIT 1) AS granted_at,
                      (SELECT g.kind FROM grants g WHERE g.order_id = orders.order_id ORDER BY g.id LIMIT 1) AS grant_kind
                    FROM orders WHERE state = 'delivered' AND NOT EXISTS (SELECT 1 FROM events e WHERE e.order_id = orders.order_id)
                    ORDER BY order_id LIMIT \(literal: batch)
                    """
                ).map { row in
                    let order = try Order(row: row)
                    return (
                        order, grantedAt: try row.optionalInt64("granted_at") ?? order.stateChangedAt,
                        kind: try row.optionalValue("grant_kind", as: GrantKind.self) ?? .automatic
                    )
                }
                guard !delivered.isEmpty else { return 0 }
                let known = try await HistoryContext.read(tx.sql, orders: delivered.map(\.0))
                var values: [HistoryEvent] = []
                for (order, grantedAt, kind) in delivered {
                    let product = known.products[order.productId]
                    let subscription = product?.type == .autoRenewable ? order.originalTransactionId.flatMap { known.subscriptions[$0] } : nil
                    // As a live event: a subscription's latest period, else the order's purchase.
                    let bought =
                        if let otid = subscription?.originalTransactionId { known.latestPeriods[otid] } else {
                            order.transactionId.flatMap { known.purchases[$0] }
                        }
                    let payload = GameEventPayload(
                        .delivered, eventId: GameEventPayload.newId(), at: grantedAt, order: order, product: product, subscription: subscription,
                        bought: bought, grantKind: kind, reason: nil, change: nil, share: nil)
                    values.append(HistoryEvent(payload: payload))
                }
                for chunk in stride(from: 0, to: values.count, by: HistoryEvent.perStatement) {
                    let rows = values[chunk..<min(chunk + HistoryEvent.perStatement, values.count)]
                    var insert: SQLQueryString =
                        "INSERT INTO events (event_id, type, order_id, account_id, created_at, payload, confirmed_at, confirmed_via) VALUES "
                    for (index, event) in rows.enumerated() {
                        if index > 0 { insert.appendLiteral(", ") }
                        insert.appendInterpolation(try event.tuple())
                    }
                    try await tx.sql.raw(insert).run()
                }
                return delivered.count
            }
            written += count
            if count < batch { return written }
        }
    }
}

/// One history event as a row of the `events` table.
private struct HistoryEvent {
    let payload: GameEventPayload
    /// 8 values a row, far inside SQLite's 32,766 and PostgreSQL's 65,535 bound values.
    static let perStatement = 500

    func tuple() throws -> SQLQueryString {
        let at = payload.at
        return """
            (\(bind: payload.eventId), \(bind: payload.type.rawValue), \(bind: payload.order.orderId), \(bind: payload.account), \
            \(bind: at), \(bind: try payload.body.json()), \(bind: at), \(bind: EventChannel.history.rawValue))
            """
    }
}

/// What a batch of history events needs to know of its orders, read in one statement per table.
private struct HistoryContext {
    var products: [String: Product] = [:]
    var subscriptions: [String: Subscription] = [:]
    /// Each subscription's latest period, by original transaction id.
    var latestPeriods: [String: StoredTransaction] = [:]
    /// Each order's own purchase, by transaction id.
    var purchases: [String: StoredTransaction] = [:]

    static func read(_ sql: any SQLDatabase, orders: [Order]) async throws -> HistoryContext {
        var known = HistoryContext()
        let productIds = Array(Set(orders.map(\.productId)))
        for row in try await sql.rows("SELECT \(unsafeRaw: Product.Column.list) FROM products WHERE product_id IN (\(binds: productIds))") {
            let product = try Product(row: row)
            known.products[product.productId] = product
        }
        let otids = Array(Set(orders.compactMap(\.originalTransactionId)))
        if !otids.isEmpty {
            for row in try await sql.rows("SELECT \(unsafeRaw: Subscription.Column.list) FROM subscriptions WHERE original_transaction_id IN (\(binds: otids))")
            {
                let subscription = try Subscription(row: row)
                known.subscriptions[subscription.originalTransactionId] = subscription
            }
        }
        let chains = Array(known.subscriptions.keys)
        if !chains.isEmpty {
            let periods = try await sql.rows(
                "SELECT \(unsafeRaw: StoredTransaction.Column.list) FROM transactions WHERE original_transaction_id IN (\(binds: chains)) ORDER BY purchase_date"
            )
            for row in periods {
                let period = try StoredTransaction(row: row)
                known.latestPeriods[period.transaction.originalTransactionId] = period  // the last one read is the latest
            }
        }
        let tids = Array(Set(orders.compactMap(\.transactionId)))
        if !tids.isEmpty {
            for row in try await sql.rows("SELECT \(unsafeRaw: StoredTransaction.Column.list) FROM transactions WHERE transaction_id IN (\(binds: tids))") {
                let purchase = try StoredTransaction(row: row)
                known.purchases[purchase.transaction.transactionId] = purchase
            }
        }
        return known
    }
}
