import Foundation
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
                    "SELECT \(unsafeRaw: StoredTransaction.columns) FROM transactions WHERE original_transaction_id = \(bind: otid) ORDER BY purchase_date DESC LIMIT 1"
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
                    SELECT \(Order.columns) FROM orders WHERE original_transaction_id = \(bind: otid)
                    ORDER BY CASE WHEN state = 'delivered' THEN 0 ELSE 1 END, created_at DESC LIMIT 1
                    """
                ).map(Order.init(row:))
            else { continue }
            for change in changes { try await recordEvent(change.type, order: order, change: change) }
        }
        subscriptionsBefore = [:]
    }
}

extension GameEvent {
    static let columns = """
        id, event_id, type, order_id, account_id, created_at, payload, attempts, last_attempt_at, last_status, last_error,
        confirmed_at, confirmed_via, dead_at
        """

    init(row: Row) throws {
        self.init(
            id: try row.int64("id"), eventId: try row.string("event_id"), type: try row.value("type", as: GameEventType.self),
            orderId: try row.optionalString("order_id"), accountId: try row.string("account_id"), createdAt: try row.int64("created_at"),
            payload: try row.string("payload"), attempts: try row.int64("attempts"), lastAttemptAt: try row.optionalInt64("last_attempt_at"),
            lastStatus: try row.optionalInt64("last_status").map(Int.init), lastError: try row.optionalString("last_error"),
            confirmedAt: try row.optionalInt64("confirmed_at"), confirmedVia: try row.optionalString("confirmed_via"), deadAt: try row.optionalInt64("dead_at"))
    }
}

extension GameEventAttempt {
    init(row: Row) throws {
        self.init(
            at: try row.int64("at"), via: try row.value("via", as: EventChannel.self), httpStatus: try row.optionalInt64("http_status").map(Int.init),
            answer: try row.optionalString("answer"), latencyMs: try row.optionalInt64("latency_ms"))
    }
}
