import Foundation
import OrderDomain
import SQLKit

/// The outbox: an event is written in the transaction that makes the change
/// it tells of, so a committed grant always has its event and a rolled-back one never does.
extension WriteTransaction {
    /// Writes the event for a change to `order` and owes its account a send. For a
    /// subscription the effect names its owner and period end (R8) unless `change` (a
    /// renewal, expiry or transfer from SubscriptionEventRule) says otherwise.
    func recordEvent(
        _ type: GameEventType, order: Order, grantKind: GrantKind? = nil, reason: String? = nil,
        change: SubscriptionEventRule.Change? = nil, share: PartialShare? = nil
    ) async throws {
        let product = try await sql.product(order.productId)
        var subscription: Subscription?
        if product?.type == .autoRenewable, let otid = order.originalTransactionId { subscription = try await subscriptionRow(otid) }
        if let otid = order.originalTransactionId, type == .delivered || type == .refundReversed { subscriptionsTold.insert(otid) }
        // The terms of what the event is about: a subscription's latest period, else the order's purchase.
        let bought =
            if let otid = subscription?.originalTransactionId {
                try await sql.row(
                    "SELECT \(unsafeRaw: StoredTransaction.Column.list) FROM transactions WHERE original_transaction_id = \(bind: otid) ORDER BY purchase_date DESC LIMIT 1"
                ).map(StoredTransaction.init(row:))
            } else if let tid = order.transactionId { try await storedTransaction(tid) } else { nil as StoredTransaction? }
        let payload = GameEventPayload(
            type, eventId: GameEventPayload.newId(), at: now, order: order, product: product, subscription: subscription, bought: bought,
            grantKind: grantKind, reason: reason, change: change, share: share)
        try await insertEvent(payload.eventId, type, orderId: order.orderId, account: payload.account, payload: try payload.body.json())
    }

    /// Tells the game a parent withdrew consent for the app (RESCIND_CONSENT): `account`
    /// played on the Apple Account `appTransactionId` names; its access ends.
    func recordConsentRescinded(account: String, appTransactionId: String) async throws {
        let eventId = GameEventPayload.newId()
        var body = GameEventBody(
            id: eventId, type: .consentRescinded, createdAt: now, accountId: account, effect: GameEventBody.Effect(op: .endAccess, accountId: account),
            summary: "end \(account)'s access: a parent withdrew consent for the app (app transaction \(appTransactionId))")
        body.appTransactionId = appTransactionId
        try await insertEvent(eventId, .consentRescinded, orderId: nil, account: account, payload: try body.json())
    }

    private func insertEvent(_ eventId: String, _ type: GameEventType, orderId: String?, account: String, payload: String) async throws {
        try await sql.raw(
            """
            INSERT INTO events (event_id, type, order_id, account_id, created_at, payload)
            VALUES (\(bind: eventId), \(bind: type.rawValue), \(bind: orderId), \(bind: account), \(bind: now), \(bind: payload))
            """
        ).run()
        try await enqueue(.sendEvents(accountId: account), dueAt: now)
    }

    /// Notes a subscription about to change in this transaction, as it was before.
    func willChangeSubscription(_ otid: String) async throws {
        guard subscriptionsBefore[otid] == nil else { return }
        subscriptionsBefore[otid] = .some(try await subscriptionRow(otid))
    }

    /// At commit: the events SubscriptionEventRule owes for each subscription changed.
    func recordSubscriptionEvents() async throws {
        for (otid, before) in subscriptionsBefore.sorted(by: { $0.key < $1.key }) {
            guard let before, let after = try await subscriptionRow(otid) else { continue }
            let changes = SubscriptionEventRule.changes(before: before, after: after, renewalToldAlready: subscriptionsTold.contains(otid))
            guard !changes.isEmpty,
                let order = try await sql.row(
                    """
                    SELECT \(unsafeRaw: Order.Column.list) FROM orders WHERE original_transaction_id = \(bind: otid)
                    ORDER BY CASE WHEN state = 'delivered' THEN 0 ELSE 1 END, created_at DESC LIMIT 1
                    """
                ).map(Order.init(row:))
            else { continue }
            for change in changes { try await recordEvent(change.type, order: order, change: change) }
        }
        subscriptionsBefore = [:]
    }
}

extension GameEvent: StoredRecord {
    enum Column: String, TableColumn {
        case id, eventId = "event_id", type, orderId = "order_id", accountId = "account_id", createdAt = "created_at", payload, attempts,
            lastAttemptAt = "last_attempt_at", lastStatus = "last_status", lastError = "last_error", confirmedAt = "confirmed_at",
            confirmedVia = "confirmed_via", deadAt = "dead_at"
    }

    init(_ row: Columns<Column>) throws {
        self.init(
            id: try row.int64(.id), eventId: try row.string(.eventId), type: try row.value(.type, as: GameEventType.self),
            orderId: try row.optionalString(.orderId), accountId: try row.string(.accountId), createdAt: try row.int64(.createdAt),
            payload: try row.string(.payload), attempts: try row.int64(.attempts), lastAttemptAt: try row.optionalInt64(.lastAttemptAt),
            lastStatus: try row.optionalInt64(.lastStatus).map(Int.init), lastError: try row.optionalString(.lastError),
            confirmedAt: try row.optionalInt64(.confirmedAt), confirmedVia: try row.optionalString(.confirmedVia), deadAt: try row.optionalInt64(.deadAt))
    }
}

extension GameEventAttempt: StoredRecord {
    enum Column: String, TableColumn {
        case at, via, httpStatus = "http_status", answer, latencyMs = "latency_ms"
    }

    init(_ row: Columns<Column>) throws {
        self.init(
            at: try row.int64(.at), via: try row.value(.via, as: EventChannel.self), httpStatus: try row.optionalInt64(.httpStatus).map(Int.init),
            answer: try row.optionalString(.answer), latencyMs: try row.optionalInt64(.latencyMs))
    }
}
