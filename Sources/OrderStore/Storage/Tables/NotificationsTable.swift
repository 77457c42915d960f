import Foundation
import OrderDomain
import SQLKit

/// The notifications table: every notification as it came, its verdict and what it did.
extension NotificationRecord: StoredRecord {
    enum Column: String, TableColumn {
        case id, endpoint, via, receivedAt = "received_at", rejection, facts, outcome, detail, appliedAt = "applied_at", deadlineAt = "deadline_at",
            raw, marketplace
    }

    init(_ row: Columns<Column>) throws {
        let facts: NotificationFacts
        let id = try row.int64(.id)
        let endpoint = try row.value(.endpoint, as: AppleEnvironment.self)
        let via = try row.value(.via, as: NotificationChannel.self)
        let receivedAt = try row.int64(.receivedAt)
        let rejection = try row.optionalString(.rejection).map(NotificationRejection.init(storedText:))
        do {
            facts = try JSONDecoder().decode(NotificationFacts.self, from: Data(try row.string(.facts).utf8))
        } catch {
            // Written by this code from a verified payload: anything else was changed outside it.
            throw StoreError.corrupt("notification \(id): its stored facts do not decode (\(error))")
        }
        let outcome = try row.value(.outcome, as: NotificationOutcome.self)
        let detail = try row.optionalString(.detail).map(NotificationDetail.init(storedText:))
        let appliedAt = try row.optionalInt64(.appliedAt)
        let deadline = try row.optionalInt64(.deadlineAt)
        let raw = try row.string(.raw)
        let marketplace = try row.value(.marketplace, as: Marketplace.self)
        self.init(
            id: id, endpoint: endpoint, via: via, receivedAt: receivedAt, rejection: rejection, facts: facts, outcome: outcome, detail: detail,
            appliedAt: appliedAt, deadline: deadline, raw: raw, marketplace: marketplace)
    }
}

extension NotificationFacts {
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}

/// A notification as it is stored on arrival, before the worker applies it.
enum NotificationInsert {
    static let columns = """
        uuid, endpoint, via, received_at, rejection, type, subtype, signed_date, transaction_id, original_transaction_id, apply_key, facts, raw,
        outcome, deadline_at, app, marketplace
        """

    /// Its row, in the order of ``columns``: a rejected one keeps no uuid (an outsider's
    /// claim must not block Apple's own notification) and owes nothing.
    static func values(_ notification: IncomingNotification, at now: Millis) throws -> SQLQueryString {
        let facts = notification.facts
        let verified = notification.rejection == nil
        let deadline =
            verified && NotificationEffect.of(facts) == .consumptionRequest
            ? (facts.signedDate ?? now) + NotificationEffect.consumptionDeadline : nil
        return """
            (\(bind: verified ? facts.uuid : nil), \(bind: notification.endpoint.rawValue), \(bind: notification.via.rawValue),
              \(bind: now), \(bind: try notification.rejection?.storedText), \(bind: facts.type), \(bind: facts.subtype), \(bind: facts.signedDate),
              \(bind: facts.transaction?.transactionId), \(bind: facts.originalTransactionId),
              \(bind: facts.applyKey), \(bind: try facts.json()), \(bind: notification.raw),
              \(bind: (verified ? NotificationOutcome.pending : .rejected).rawValue), \(bind: deadline), \(bind: facts.app),
              \(bind: notification.marketplace.rawValue))
            """
    }
}

extension WriteTransaction {
    func notificationRecord(_ id: Int64) async throws -> NotificationRecord? {
        try await sql.row("SELECT \(unsafeRaw: NotificationRecord.Column.list) FROM notifications WHERE id = \(bind: id)").map(NotificationRecord.init(row:))
    }

    /// The notifications about `key` still to apply, in the order they are applied.
    func pendingNotifications(key: String) async throws -> [NotificationRecord] {
        try await sql.rows(
            """
            SELECT \(unsafeRaw: NotificationRecord.Column.list) FROM notifications WHERE apply_key = \(bind: key) AND outcome = 'pending'
            ORDER BY signed_date, id
            """
        ).map(NotificationRecord.init(row:))
    }

    func setNotificationOutcome(_ id: Int64, _ outcome: NotificationOutcome, detail: NotificationDetail) async throws {
        try await sql.raw(
            """
            UPDATE notifications SET outcome = \(bind: outcome.rawValue), detail = \(bind: try detail.json()), applied_at = \(bind: now) WHERE id = \(bind: id)
            """
        ).run()
    }

    /// The newest applied notification of `types` about `transactionId` signed after `signedDate`.
    func newerApplied(transactionId: String, types: [String], after signedDate: Millis, excluding id: Int64) async throws -> (id: Int64, type: String)? {
        try await sql.row(
            """
            SELECT id, type FROM notifications
            WHERE transaction_id = \(bind: transactionId) AND id <> \(bind: id) AND signed_date > \(bind: signedDate)
              AND outcome IN ('applied', 'orphan') AND type IN (\(binds: types))
            ORDER BY signed_date DESC LIMIT 1
            """
        ).map { (try $0.int64("id"), try $0.string("type")) }
    }
}
