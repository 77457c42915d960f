import OrderDomain
import SQLKit

/// Grants (deliveries, R11) that no audit entry records: rows written into `grants` by hand.
public struct UnauditedDelivery: Sendable, Equatable {
    public var orderId: String
    public var grantedAt: Millis
    /// Grant rows at that instant that no audit entry records.
    public var count: Int
}

/// The audit entry a bulk load (a seed) writes for the history it loads: the grants it made
/// are its own, named by the entry's grant range.
enum SeedAuditEntry {
    static let action = AuditAction.seed.rawValue
    static let target = AuditTarget.seed.description

    static func detail(orders: Int) throws -> String { try AuditDetail(.seed(orders: orders)).storedText() }

    /// The grants outside every seed's range (`g` the grants table).
    static func outside(_ ranges: [ClosedRange<Int64>]) -> SQLQueryString {
        ranges.reduce("1 = 1") { "\($0) AND NOT (g.id BETWEEN \(bind: $1.lowerBound) AND \(bind: $1.upperBound))" }
    }
}

extension AuditLog {
    /// Every grant is written with the audit entry of its order's move to delivered, in the
    /// same transaction and so at the same instant, and that entry names the grant's id; a
    /// seed's entry names the range of grants it loaded. Finds grants no entry names (at most
    /// `limit`). Trustworthy as far as the audit log is: run after `verify`.
    public func unauditedDeliveries(limit: Int = 20) async throws -> [UnauditedDelivery] {
        try await store.read { sql in
            let legacyThrough = try await sql.row("SELECT legacy_grants_through FROM audit_head WHERE id = 1")?.int64("legacy_grants_through") ?? 0
            var found = legacyThrough > 0 ? try await LegacyGrantAudit.unaudited(sql, through: legacyThrough, limit: limit) : []
            guard found.count < limit else { return found }
            let seeded = try await sql.rows(
                """
                SELECT grants_from, grants_to FROM audit_log
                WHERE target = \(bind: SeedAuditEntry.target) AND action = \(bind: SeedAuditEntry.action) AND grants_from IS NOT NULL
                """
            ).compactMap { row -> ClosedRange<Int64>? in
                let (from, to) = (try row.int64("grants_from"), try row.int64("grants_to"))
                return from <= to ? from...to : nil  // a range that is none breaks `verify`
            }
            found += try await sql.rows(
                """
                SELECT g.order_id, g.granted_at, COUNT(*) AS unaudited FROM grants g
                WHERE g.id > \(bind: legacyThrough) AND \(SeedAuditEntry.outside(seeded)) AND NOT EXISTS (
                  SELECT 1 FROM audit_log a
                  WHERE a.target = \(bind: AuditTarget.order("").description) || g.order_id AND a.at = g.granted_at
                    AND g.id BETWEEN a.grants_from AND a.grants_to)
                GROUP BY g.order_id, g.granted_at ORDER BY g.granted_at LIMIT \(literal: limit - found.count)
                """
            ).map(UnauditedDelivery.init(row:))
            return found
        }
    }
}

/// Grants written before migration 23 (ids up to `audit_head.legacy_grants_through`),
/// which their entries named only in words: migration 32 kept what those words said as
/// facts, how many grants each order's entries at an instant record and the ranges the
/// seeds loaded. Read for those grants alone.
enum LegacyGrantAudit {
    static func unaudited(_ sql: any SQLDatabase, through last: Int64, limit: Int) async throws -> [UnauditedDelivery] {
        let seeded = try await sql.rows("SELECT grants_from, grants_to FROM legacy_seed_grants").compactMap { row -> ClosedRange<Int64>? in
            let (from, to) = (try row.int64("grants_from"), try row.int64("grants_to"))
            return from <= to ? from...to : nil
        }
        return try await sql.rows(
            """
            SELECT order_id, granted_at, grants - audited AS unaudited FROM (
              SELECT g.order_id, g.granted_at, COUNT(*) AS grants, COALESCE((
                SELECT l.audited FROM legacy_grant_audits l WHERE l.order_id = g.order_id AND l.granted_at = g.granted_at), 0) AS audited
              FROM grants g WHERE g.id <= \(bind: last) AND \(SeedAuditEntry.outside(seeded)) GROUP BY g.order_id, g.granted_at) AS counted
            WHERE grants > audited ORDER BY granted_at LIMIT \(literal: limit)
            """
        ).map(UnauditedDelivery.init(row:))
    }
}

extension UnauditedDelivery: StoredRecord {
    enum Column: String, TableColumn {
        case orderId = "order_id", grantedAt = "granted_at", unaudited
    }

    init(_ row: Columns<Column>) throws {
        orderId = try row.string(.orderId)
        grantedAt = try row.int64(.grantedAt)
        count = try row.int(.unaudited)
    }
}
