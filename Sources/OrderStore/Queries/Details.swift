import OrderDomain
import SQLKit

/// An order's detail: the order, its product, receipts, Apple's latest answers, grants,
/// transactions, Apple's notifications about them, the audit entries and the game's events
/// with every try.
enum OrderDetailRead: DetailRead {
    enum Part: String, CaseIterable, Sendable {
        case order, product, submissions, attempts, grants, transactions, notifications, audit, events, notes
        case eventAttempts = "event_attempts", playPurchases = "play_purchases"
    }

    static let statementName = "iapdesk_order_detail_v4"

    static func select(_ part: Part) -> DetailQuery.Select {
        switch part {
        case .order: DetailQuery.Select("SELECT \(Order.Column.list) FROM orders WHERE order_id = $1", order: "order_id")
        case .product:
            DetailQuery.Select(
                "SELECT \(Product.Column.list) FROM products WHERE product_id = (SELECT product_id FROM orders WHERE order_id = $1)", order: "product_id")
        case .submissions:
            DetailQuery.Select(
                "SELECT \(Submission.Column.list) FROM receipt_submissions WHERE order_id = $1",
                order: "id")
        case .attempts:
            DetailQuery.Select(
                """
                SELECT \(VerificationAttempt.Column.list)
                FROM verification_attempts WHERE order_id = $1 ORDER BY id DESC LIMIT $2
                """, order: "id")
        case .grants: DetailQuery.Select("SELECT \(Grant.Column.list) FROM grants WHERE order_id = $1", order: "id")
        case .transactions:
            DetailQuery.Select("SELECT \(StoredTransaction.Column.list) FROM transactions WHERE order_id = $1", order: "purchase_date, transaction_id")
        case .notifications:
            DetailQuery.Select(
                """
                SELECT \(NotificationRecord.Column.list), signed_date FROM notifications
                WHERE transaction_id IN (SELECT transaction_id FROM transactions WHERE order_id = $1
                                         UNION ALL SELECT transaction_id FROM orders WHERE order_id = $1)
                """, order: "signed_date, id")
        case .audit:
            DetailQuery.Select("SELECT \(AuditEntry.Column.list) FROM audit_log WHERE target = '\(AuditTarget.order("").description)' || $1", order: "seq")
        case .events: DetailQuery.Select("SELECT \(GameEvent.Column.list) FROM events WHERE order_id = $1", order: "id")
        case .notes:
            DetailQuery.Select("SELECT \(Note.Column.list) FROM notes WHERE target_kind = 'order' AND target_id = $1 ORDER BY id LIMIT $2", order: "id")
        case .eventAttempts:
            DetailQuery.Select(
                """
                SELECT id, event, \(GameEventAttempt.Column.list) FROM event_attempts
                WHERE event IN (SELECT id FROM events WHERE order_id = $1)
                """, order: "id")
        case .playPurchases:
            DetailQuery.Select(
                """
                SELECT \(StoredPlayPurchase.Column.list) FROM play_purchases WHERE purchase_token IN
                  (SELECT purchase_token FROM receipt_submissions WHERE order_id = $1 AND purchase_token IS NOT NULL
                   UNION SELECT purchase_token FROM transactions WHERE order_id = $1 AND purchase_token IS NOT NULL)
                """, order: "first_seen_at, purchase_token")
        }
    }
}

/// A subscription's detail: the subscription, its chain, the orders that claimed it, its
/// owner history and Apple's notifications, each up to the limit, oldest first.
enum SubscriptionDetailRead: DetailRead {
    enum Part: String, CaseIterable, Sendable {
        case subscription, chain, orders, ownership, notifications, extensions, appleAccountPlayers = "apple_account_players"
    }

    static let statementName = "iapdesk_subscription_detail_v4"

    static func select(_ part: Part) -> DetailQuery.Select {
        switch part {
        case .subscription:
            DetailQuery.Select("SELECT \(Subscription.Column.list) FROM subscriptions WHERE original_transaction_id = $1", order: "original_transaction_id")
        case .chain:
            DetailQuery.Select(
                """
                SELECT \(StoredTransaction.Column.list) FROM transactions WHERE original_transaction_id = $1
                ORDER BY purchase_date, transaction_id LIMIT $2
                """, order: "purchase_date, transaction_id")
        case .orders:
            DetailQuery.Select(
                "SELECT \(Order.Column.list) FROM orders WHERE original_transaction_id = $1 ORDER BY created_at, order_id LIMIT $2",
                order: "created_at, order_id")
        case .ownership:
            DetailQuery.Select(
                "SELECT \(OwnershipEvent.Column.list) FROM ownership_events WHERE original_transaction_id = $1 ORDER BY id LIMIT $2", order: "id")
        case .notifications:
            // Apple's name the subscription; Google's name one of its chain's purchase tokens.
            DetailQuery.Select(
                """
                SELECT \(NotificationRecord.Column.list), signed_date FROM notifications WHERE original_transaction_id = $1
                UNION SELECT \(NotificationRecord.Column.list), signed_date FROM notifications
                WHERE apply_key IN (SELECT 'play:' || purchase_token FROM transactions WHERE original_transaction_id = $1 AND purchase_token IS NOT NULL)
                ORDER BY signed_date, id LIMIT $2
                """, order: "signed_date, id")
        case .extensions:
            DetailQuery.Select(
                "SELECT \(SubscriptionExtension.Column.list) FROM subscription_extensions WHERE original_transaction_id = $1 ORDER BY id LIMIT $2", order: "id")
        case .appleAccountPlayers:
            DetailQuery.Select(
                """
                SELECT o.account_id, COUNT(DISTINCT CASE WHEN o.state = 'refunded' THEN o.order_id END) AS refunds
                FROM transactions t JOIN orders o ON o.order_id = t.order_id
                WHERE t.app_transaction_id IN (SELECT app_transaction_id FROM transactions WHERE original_transaction_id = $1
                                               AND app_transaction_id IS NOT NULL)
                GROUP BY o.account_id ORDER BY o.account_id LIMIT $2
                """, order: "account_id")
        }
    }
}

/// An account's detail: its orders newest first, then grants, subscriptions, flags, notes and
/// the other accounts of the same Apple Account.
enum AccountDetailRead: DetailRead {
    enum Part: String, CaseIterable, Sendable {
        case orders, grants, subscriptions, flags, notes, sameAppleAccount = "same_apple_account"
    }

    static let statementName = "iapdesk_account_detail_v3"

    static func select(_ part: Part) -> DetailQuery.Select {
        switch part {
        case .orders:
            DetailQuery.Select(
                "SELECT \(Order.Column.list) FROM orders WHERE account_id = $1 ORDER BY created_at DESC, order_id DESC LIMIT $2",
                order: "created_at DESC, order_id DESC")
        case .grants: DetailQuery.Select("SELECT \(Grant.Column.list) FROM grants WHERE account_id = $1 ORDER BY id DESC LIMIT $2", order: "id DESC")
        case .subscriptions:
            DetailQuery.Select(
                "SELECT \(Subscription.Column.list) FROM subscriptions WHERE owner_account = $1 ORDER BY original_transaction_id LIMIT $2",
                order: "original_transaction_id")
        case .flags:
            DetailQuery.Select("SELECT id, \(AccountFlag.Column.list) FROM account_flags WHERE account_id = $1 ORDER BY id DESC LIMIT $2", order: "id DESC")
        case .notes:
            DetailQuery.Select("SELECT \(Note.Column.list) FROM notes WHERE target_kind = 'account' AND target_id = $1 ORDER BY id LIMIT $2", order: "id")
        case .sameAppleAccount:
            DetailQuery.Select(
                """
                SELECT o2.account_id, COUNT(DISTINCT CASE WHEN o2.state = 'refunded' THEN o2.order_id END) AS refunds
                FROM orders o1 JOIN transactions t1 ON t1.order_id = o1.order_id
                JOIN transactions t2 ON t2.app_transaction_id = t1.app_transaction_id
                JOIN orders o2 ON o2.order_id = t2.order_id
                WHERE o1.account_id = $1 AND t1.app_transaction_id IS NOT NULL AND o2.account_id <> $1
                GROUP BY o2.account_id ORDER BY o2.account_id LIMIT $2
                """, order: "account_id")
        }
    }
}

extension OrderStore {
    /// What a replayed or disputed order names, so support can go there without typing an
    /// id; nothing is read for any other order.
    func relate(_ detail: inout OrderDetail) async throws {
        let order = detail.order
        if order.replayFlag, let picked = detail.attempts.last(where: { $0.verdict?.pickedTransactionId != nil })?.verdict?.pickedTransactionId {
            // The keys R7 claims: the transaction, and for a restore its original transaction.
            detail.replayHolder = try await read { sql in
                try await sql.row(
                    """
                    SELECT order_id FROM claims
                    WHERE (claim_key = \(bind: "tid:\(picked)")
                           OR claim_key = (SELECT 'otid:' || original_transaction_id FROM transactions WHERE transaction_id = \(bind: picked)))
                      AND order_id <> \(bind: order.orderId)
                    LIMIT 1
                    """
                )?.string("order_id")
            }
        }
        if order.state == .disputed, let otid = order.originalTransactionId {
            detail.subscriptionOwner = try await read { sql in
                try await sql.row("SELECT owner_account FROM subscriptions WHERE original_transaction_id = \(bind: otid)")?.optionalString("owner_account")
            }
        }
    }
}

extension Orders {
    /// Everything about one order, as the order screen and `iapdesk order show` read it: the
    /// order and its product, receipts submitted, Apple's answers with the store's verdict,
    /// transactions, grants, the game's events and the timeline, newest first.
    ///
    /// - Parameters:
    ///   - orderId: the order's id (``Orders/lookup(_:kind:limit:)`` finds it from any other id).
    ///   - attemptLimit: how many of Apple's answers to read (an order retried for three
    ///     days has hundreds; the timeline collapses repeats).
    /// - Throws: `StoreError/notFound(kind:id:)` for an unknown order.
    public func detail(_ orderId: String, attemptLimit: Int = 100) async throws -> OrderDetail {
        let parts = try await store.readConnection { db in try await DetailQuery.rows(OrderDetailRead.self, on: db, id: orderId, limit: attemptLimit) }
        guard let order = try parts.first(.order, Order.init(row:)) else { throw StoreError.notFound(kind: .order, id: orderId) }
        var attemptsByEvent: [Int64: [GameEventAttempt]] = [:]
        for (event, attempt) in try parts.all(.eventAttempts, { (try $0.int64("event"), try GameEventAttempt(row: $0)) }) {
            attemptsByEvent[event, default: []].append(attempt)
        }
        var detail = OrderDetail(
            order: order, product: try parts.first(.product, Product.init(row:)),
            submissions: try parts.all(.submissions, Submission.init(row:)),
            attempts: try parts.all(.attempts, VerificationAttempt.init(row:)),
            grants: try parts.all(.grants, Grant.init(row:)),
            transactions: try parts.all(.transactions, StoredTransaction.init(row:)),
            notifications: try parts.all(.notifications, NotificationRecord.init(row:)),
            audit: try parts.all(.audit, AuditEntry.init(row:)),
            events: try parts.all(.events) { row in
                let event = try GameEvent(row: row)
                return GameEventDetail(event: event, attempts: attemptsByEvent[event.id] ?? [])
            },
            notes: try parts.all(.notes, Note.init(row:)),
            playPurchases: try parts.all(.playPurchases, StoredPlayPurchase.init(row:)))
        try await store.relate(&detail)
        return detail
    }

    /// Transactions Apple reported that no order claims, oldest first.
    public func orphans(after: (firstSeenAt: Millis, transactionId: String)? = nil, limit: Int = 50) async throws -> [StoredTransaction] {
        let from = after ?? (Int64.min, "")
        return try await store.read { sql in
            try await sql.rows(
                """
                SELECT \(unsafeRaw: StoredTransaction.Column.list) FROM transactions
                WHERE order_id IS NULL AND (first_seen_at, transaction_id) > (\(bind: from.firstSeenAt), \(bind: from.transactionId))
                ORDER BY first_seen_at, transaction_id LIMIT \(literal: limit)
                """
            ).map(StoredTransaction.init(row:))
        }
    }
}

extension Subscriptions {
    /// One auto-renewable subscription by its original transaction id: owner and how that
    /// was decided (R8), the transaction chain with who submitted each, the owner history,
    /// Apple's notifications and the orders that claimed it. `subscription` is nil when no
    /// subscription has that id.
    public func detail(_ otid: String, limit: Int = 500) async throws -> SubscriptionDetail {
        let parts = try await store.readConnection { db in try await DetailQuery.rows(SubscriptionDetailRead.self, on: db, id: otid, limit: limit) }
        return SubscriptionDetail(
            subscription: try parts.first(.subscription, Subscription.init(row:)),
            chain: try parts.all(.chain, StoredTransaction.init(row:)),
            orders: try parts.all(.orders, Order.init(row:)),
            ownership: try parts.all(.ownership, OwnershipEvent.init(row:)),
            notifications: try parts.all(.notifications, NotificationRecord.init(row:)),
            extensions: try parts.all(.extensions, SubscriptionExtension.init(row:)),
            appleAccountPlayers: try parts.all(.appleAccountPlayers) {
                SiblingAccount(accountId: try $0.string("account_id"), refunds: try $0.int("refunds"))
            })
    }

    /// R8 decisions waiting for an operator's look, newest first, each with the store its
    /// subscription is sold in; `marketplace` keeps one store's. The review list is short
    /// (a partial index keys it), so the store is read per row.
    public func disputes(limit: Int = 100, in marketplace: Marketplace? = nil) async throws -> [Dispute] {
        let store: SQLQueryString =
            "COALESCE((SELECT s.marketplace FROM subscriptions s WHERE s.original_transaction_id = ownership_events.original_transaction_id), 'app_store')"
        let only: SQLQueryString = marketplace.map { " AND \(store) = \(bind: $0.rawValue)" } ?? ""
        return try await self.store.read { sql in
            try await sql.rows(
                """
                SELECT \(unsafeRaw: OwnershipEvent.Column.list), \(store) AS marketplace FROM ownership_events
                WHERE needs_review = 1\(only) ORDER BY id DESC LIMIT \(literal: limit)
                """
            ).map { row in Dispute(event: try OwnershipEvent(row: row), marketplace: try row.value("marketplace", as: Marketplace.self)) }
        }
    }
}

extension Accounts {
    /// One player's account: its orders newest first, grants, subscriptions it owns and the
    /// flags the rules raised on it (a replay, R7).
    public func detail(_ accountId: String, limit: Int = 100) async throws -> AccountDetail {
        let parts = try await store.readConnection { db in try await DetailQuery.rows(AccountDetailRead.self, on: db, id: accountId, limit: limit) }
        return AccountDetail(
            accountId: accountId,
            orders: try parts.all(.orders, Order.init(row:)),
            grants: try parts.all(.grants, Grant.init(row:)),
            subscriptions: try parts.all(.subscriptions, Subscription.init(row:)),
            flags: try parts.all(.flags, AccountFlag.init(row:)),
            notes: try parts.all(.notes, Note.init(row:)),
            sameAppleAccount: try parts.all(.sameAppleAccount) { SiblingAccount(accountId: try $0.string("account_id"), refunds: try $0.int("refunds")) })
    }
}
