import OrderDomain

extension OrderStore {
    /// R10's log: every operator action and automatic state change, hash-chained (and
    /// signed with the audit key when the store has one), with its checks.
    public var audit: AuditLog { AuditLog(store: self) }
}

/// The audit log of one store (``OrderStore/audit``).
public struct AuditLog: Sendable {
    let store: OrderStore

    /// The log, newest first, before `seq` (exclusive).
    public func entries(before seq: Int64? = nil, limit: Int = 100) async throws -> [AuditEntry] {
        try await store.read { sql in
            try await sql.rows(
                """
                SELECT \(unsafeRaw: AuditEntry.Column.list) FROM audit_log WHERE seq < \(bind: seq ?? Int64.max) ORDER BY seq DESC LIMIT \(literal: limit)
                """
            ).map(AuditEntry.init(row:))
        }
    }
}
