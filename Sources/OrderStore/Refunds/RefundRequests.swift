import Foundation
import OrderDomain
import SQLKit

extension OrderStore {
    /// A claim older than this was left by a process that died mid-call.
    static let appleActionClaimLifetime: Millis = .minutes(5)

    /// A verified CONSUMPTION_REQUEST, in the words of `notifications_refund_requests`'s
    /// predicate so both databases read that index (ordered by deadline).
    static let refundRequestIndexed: SQLQueryString = "n.type = 'CONSUMPTION_REQUEST' AND n.rejection IS NULL"

    /// The one test of "Apple still waits for an answer" (`n` a verified CONSUMPTION_REQUEST):
    /// its deadline is ahead, no answer was sent and Apple has not decided yet. The list and the header's count use it.
    static func openRefundRequest(_ now: Millis) -> SQLQueryString {
        """
        n.deadline_at >= \(bind: now) AND NOT EXISTS (SELECT 1 FROM refund_answers a WHERE a.notification_id = n.id AND a.outcome = 'sent')
        AND NOT EXISTS (SELECT 1 FROM notifications d WHERE d.transaction_id = n.transaction_id AND d.signed_date >= n.signed_date
                          AND d.type IN ('REFUND', 'REFUND_DECLINED') AND d.rejection IS NULL)
        """
    }

}

extension OrderStore {
    /// Apple's refund requests (CONSUMPTION_REQUEST) and the answers support sends, by hand
    /// or by the studio's policy, with the game's consumption reports they rest on.
    public var refunds: Refunds { Refunds(store: self) }
}

/// The refund desk of one store (``OrderStore/refunds``).
public struct Refunds: Sendable {
    let store: OrderStore

    /// Refund requests, soonest deadline first: the open ones (`open`), or all. Each with its
    /// order, answers and Apple's decision, read for the whole list in four statements (a
    /// list refreshed every 2 s); with `evidence`, also what ``request(_:)`` adds (the
    /// delivery, the game's report, the same Apple Account), a few statements per request.
    public func requests(open: Bool = true, at now: Millis = .now(), limit: Int = 100, evidence: Bool = true) async throws -> [RefundRequest] {
        try await store.read { sql in
            let records = try await sql.rows(
                """
                SELECT \(unsafeRaw: NotificationRecord.Column.list) FROM notifications n
                WHERE \(OrderStore.refundRequestIndexed) AND (\(bind: open ? 0 : 1) = 1 OR (\(OrderStore.openRefundRequest(now))))
                ORDER BY n.deadline_at, n.id LIMIT \(literal: limit)
                """
            ).map(NotificationRecord.init(row:))
            let requests = try await Self.refundRequests(records, sql)
            guard evidence else { return requests }
            var withEvidence: [RefundRequest] = []
            for request in requests { withEvidence.append(try await Self.evidence(for: request, sql)) }
            return withEvidence
        }
    }

    /// One refund request with its evidence.
    public func request(_ notificationId: Int64) async throws -> RefundRequest {
        let record = try await store.notifications.record(id: notificationId)
        guard record.facts.type == "CONSUMPTION_REQUEST", record.rejection == nil else { throw AppleActionError.notARefundRequest(id: notificationId) }
        return try await store.read { sql in
            guard let request = try await Self.refundRequests([record], sql).first else { throw AppleActionError.notARefundRequest(id: notificationId) }
            return try await Self.evidence(for: request, sql)
        }
    }

    /// Requests with their orders, answers and Apple's decisions: four statements whatever
    /// their number.
    private static func refundRequests(_ records: [NotificationRecord], _ sql: any SQLDatabase) async throws -> [RefundRequest] {
        guard !records.isEmpty else { return [] }
        let ids = records.map(\.id)
        let tids = records.compactMap { $0.facts.transaction?.transactionId }
        var orders: [String: Order] = [:]
        var decisions: [String: [(type: String, at: Millis)]] = [:]
        if !tids.isEmpty {
            for row in try await sql.rows(
                """
                SELECT t.transaction_id AS paid_by, \(unsafeRaw: Order.Column.list(of: "o")) FROM transactions t JOIN orders o ON o.order_id = t.order_id
                WHERE t.transaction_id IN (\(binds: tids))
                """)
            {
                orders[try row.string("paid_by")] = try Order(row: row)
            }
            for row in try await sql.rows(
                """
                SELECT transaction_id, type, signed_date FROM notifications
                WHERE transaction_id IN (\(binds: tids)) AND type IN ('REFUND', 'REFUND_DECLINED') AND rejection IS NULL
                """)
            {
                decisions[try row.string("transaction_id"), default: []].append((try row.string("type"), try row.int64("signed_date")))
            }
        }
        var answers: [Int64: [RefundAnswer]] = [:]
        for answer in try await sql.rows(
            "SELECT \(unsafeRaw: RefundAnswer.Column.list) FROM refund_answers WHERE notification_id IN (\(binds: ids)) ORDER BY id"
        ).map(RefundAnswer.init(row:)) {
            answers[answer.notificationId, default: []].append(answer)
        }
        return records.map { record in
            let tid = record.facts.transaction?.transactionId
            var request = RefundRequest(
                notification: record, deadline: record.deadline, order: tid.flatMap { orders[$0] }, accountRefunds: 0, answers: answers[record.id] ?? [])
            // Apple's latest word after it asked.
            if let tid, let asked = record.facts.signedDate, let latest = decisions[tid]?.filter({ $0.at >= asked }).max(by: { $0.at < $1.at }) {
                request.decision = RefundDecision(refunded: latest.type == "REFUND", at: latest.at)
            }
            return request
        }
    }

    /// What the desk weighs an answer on: the delivery and the game's confirmation, the
    /// account's refunds, the game's report of its use, the same Apple Account's other accounts.
    private static func evidence(for listed: RefundRequest, _ sql: any SQLDatabase) async throws -> RefundRequest {
        guard let order = listed.order, let tid = listed.transactionId else { return listed }
        var request = listed
        request.deliveredAt = try await sql.row("SELECT MIN(granted_at) AS at FROM grants WHERE order_id = \(bind: order.orderId)")?.optionalInt64("at")
        request.gameConfirmedAt = try await sql.row(
            "SELECT MIN(confirmed_at) AS at FROM events WHERE order_id = \(bind: order.orderId) AND type = 'delivered'")?.optionalInt64("at")
        request.accountRefunds =
            try await sql.row("SELECT COUNT(*) AS n FROM orders WHERE account_id = \(bind: order.accountId) AND state = 'refunded'")?.int("n") ?? 0
        request.consumption = try await ConsumptionReport.latest(orderId: order.orderId, sql)
        if let app = try await sql.row("SELECT app_transaction_id FROM transactions WHERE transaction_id = \(bind: tid)")?.optionalString("app_transaction_id")
        {
            request.sameAppleAccount = try await sql.rows(
                """
                SELECT o.account_id, COUNT(DISTINCT CASE WHEN o.state = 'refunded' THEN o.order_id END) AS refunds
                FROM transactions t JOIN orders o ON o.order_id = t.order_id
                WHERE t.app_transaction_id = \(bind: app) AND o.account_id <> \(bind: order.accountId)
                GROUP BY o.account_id ORDER BY o.account_id
                """
            ).map { SiblingAccount(accountId: try $0.string("account_id"), refunds: try $0.int("refunds")) }
        }
        return request
    }

    /// Answers a refund request: Send Consumption Information through `send`, exactly once.
    /// The answer is claimed in the store first (another operator's claim, or an answer
    /// sent, refuses it), Apple is called outside any transaction, and what Apple said is
    /// recorded and audited. `send` returns nil when Apple took the answer, else Apple's
    /// error in words; a refused answer may be corrected and sent again.
    public func answer(
        notificationId: Int64, answer: ConsumptionAnswer, by actor: Operator, reason: String, at now: Millis = .now(),
        send: @Sendable (_ transactionId: String, _ environment: AppleEnvironment, ConsumptionAnswer) async -> String?
    ) async throws -> RefundAnswer {
        try store.requireOperator(actor, may: .answerRefundRequests, reason: reason)
        guard answer.customerConsented else { throw AppleActionError.consentRequired }
        let request = try await request(notificationId)
        guard let tid = request.transactionId else { throw AppleActionError.notARefundRequest(id: notificationId) }
        if let deadline = request.deadline, deadline < now { throw AppleActionError.refundDeadlinePassed(notificationId: notificationId, deadline: deadline) }
        let body = String(decoding: try JSONEncoder().encode(answer), as: UTF8.self)
        let claimId: Int64 = try await store.write(as: actor, now: now) { tx in
            try await tx.sql.raw(
                """
                UPDATE refund_answers SET outcome = 'abandoned'
                WHERE notification_id = \(bind: notificationId) AND outcome = 'sending' AND claimed_at < \(bind: now - OrderStore.appleActionClaimLifetime)
                """
            ).run()
            let claimed = try await tx.sql.row(
                """
                INSERT INTO refund_answers (notification_id, transaction_id, operator, reason, answer, claimed_at, outcome)
                VALUES (\(bind: notificationId), \(bind: tid), \(bind: actor.name), \(bind: reason), \(bind: body), \(bind: now), 'sending')
                ON CONFLICT (notification_id) WHERE outcome IN ('sending', 'sent') DO NOTHING RETURNING id
                """)
            if let id = try claimed?.int64("id") { return id }
            let holder = try await tx.sql.row(
                "SELECT \(unsafeRaw: RefundAnswer.Column.list) FROM refund_answers WHERE notification_id = \(bind: notificationId) AND outcome IN ('sending', 'sent')"
            ).map(RefundAnswer.init(row:))
            if let holder, holder.outcome == .sent {
                throw AppleActionError.alreadyAnswered(notificationId: notificationId, by: holder.operatorName, at: holder.answeredAt ?? holder.claimedAt)
            }
            throw AppleActionError.answeringElsewhere(notificationId: notificationId, by: holder?.operatorName ?? "another operator")
        }
        let environment = AppleEnvironment(rawValue: request.notification.facts.environment ?? "") ?? request.notification.endpoint
        let app = request.notification.facts.app ?? store.settings.bundleId
        let refusal = await store.asApp(app) { await send(tid, environment, answer) }
        return try await store.write(as: actor, now: .now()) { tx in
            try await tx.sql.raw(
                """
                UPDATE refund_answers SET outcome = \(bind: (refusal == nil ? AppleActionOutcome.sent : .failed).rawValue),
                  answered_at = \(bind: tx.now), apple_error = \(bind: refusal)
                WHERE id = \(bind: claimId)
                """
            ).run()
            tx.audit(
                refusal == nil ? .refundRequestAnswered : .refundRequestRefused, target: .notification(notificationId), reason: reason,
                .consumptionAnswer(transactionId: tid, answer, appleSaid: refusal))
            guard let row = try await tx.sql.row("SELECT \(unsafeRaw: RefundAnswer.Column.list) FROM refund_answers WHERE id = \(bind: claimId)") else {
                throw StoreError.notFound(kind: .refundAnswer, id: "\(claimId)")
            }
            return try RefundAnswer(row: row)
        }
    }
}

extension RefundAnswer: StoredRecord {
    enum Column: String, TableColumn {
        case id, answer, notificationId = "notification_id", transactionId = "transaction_id", `operator`, reason, claimedAt = "claimed_at", outcome,
            answeredAt = "answered_at", appleError = "apple_error"
    }

    init(_ row: Columns<Column>) throws {
        let id = try row.int64(.id)
        let answer: ConsumptionAnswer
        do {
            answer = try JSONDecoder().decode(ConsumptionAnswer.self, from: Data(try row.string(.answer).utf8))
        } catch {
            throw StoreError.corrupt("refund answer \(id): the answer stored does not decode (\(error))")
        }
        self.init(
            id: id, notificationId: try row.int64(.notificationId), transactionId: try row.string(.transactionId),
            operatorName: try row.string(.operator), reason: try row.string(.reason), answer: answer, claimedAt: try row.int64(.claimedAt),
            outcome: try row.value(.outcome, as: AppleActionOutcome.self), answeredAt: try row.optionalInt64(.answeredAt),
            appleError: try row.optionalString(.appleError))
    }
}
