import OrderDomain
import SQLKit

extension AppleNotifications {
    /// Stored notifications, newest first, before `beforeId` when paging; `outcome`,
    /// `purchase` (an original transaction id: the purchase and its renewals) and `store` narrow.
    public func list(
        outcome: NotificationOutcome? = nil, purchase: String? = nil, store marketplace: Marketplace? = nil, before beforeId: Int64? = nil,
        limit: Int = 50
    ) async throws -> [NotificationRecord] {
        try await store.read { sql in
            var query: SQLQueryString = "SELECT \(unsafeRaw: NotificationRecord.Column.list) FROM notifications WHERE 1 = 1"
            if let outcome { query = query + " AND outcome = \(bind: outcome.rawValue)" }
            if let purchase { query = query + " AND original_transaction_id = \(bind: purchase)" }
            if let marketplace { query = query + " AND marketplace = \(bind: marketplace.rawValue)" }
            if let beforeId { query = query + " AND id < \(bind: beforeId)" }
            return try await sql.rows(query + " ORDER BY id DESC LIMIT \(literal: limit)").map(NotificationRecord.init(row:))
        }
    }

    /// One of Apple's notifications as received, with its checks' verdict and what it changed.
    ///
    /// - Throws: `StoreError/notFound(kind:id:)` for an unknown id.
    public func record(id: Int64) async throws -> NotificationRecord {
        try await store.read { sql in
            guard
                let record = try await sql.row("SELECT \(unsafeRaw: NotificationRecord.Column.list) FROM notifications WHERE id = \(bind: id)")
                    .map(NotificationRecord.init(row:))
            else { throw StoreError.notFound(kind: .notification, id: "\(id)") }
            return record
        }
    }

    /// The notification Apple sent with this `notificationUUID`, if serve kept it.
    public func record(uuid: String) async throws -> NotificationRecord? {
        try await store.read { sql in
            try await sql.row("SELECT \(unsafeRaw: NotificationRecord.Column.list) FROM notifications WHERE uuid = \(bind: uuid)").map(
                NotificationRecord.init(row:))
        }
    }
}
