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
                GROUP BY g.order_id, g.granted_at ORDER BY g.granted_at LIMIT \(bind: limit - found.count)
                """
            ).map(UnauditedDelivery.init(row:))
            return found
        }
    }
}

/// Grants written before migration 23, whose audit entries name them only in words: a
/// delivery's entry says `… → delivered`, a seed's `; grants #A–#B`. Read the way they were
/// written, for those grants alone (ids up to `audit_head.legacy_grants_through`); no entry
/// is written this way any more.
enum LegacyGrantAudit {
    static func unaudited(_ sql: any SQLDatabase, through last: Int64, limit: Int) async throws -> [UnauditedDelivery] {
        let seeded = try await sql.rows(
            """
            SELECT detail FROM audit_log WHERE target = \(bind: SeedAuditEntry.target) AND action = \(bind: SeedAuditEntry.action) AND grants_from IS NULL
            """
        ).compactMap { seedGrantIds(in: try $0.string("detail")) }
        return try await sql.rows(
            """
            SELECT order_id, granted_at, grants - audited AS unaudited FROM (
              SELECT g.order_id, g.granted_at, COUNT(*) AS grants, (
                SELECT COUNT(*) FROM audit_log a
                WHERE a.target = \(bind: AuditTarget.order("").description) || g.order_id AND a.at = g.granted_at
                  AND a.grants_from IS NULL AND a.detail LIKE '%→ delivered%') AS audited
              FROM grants g WHERE g.id <= \(bind: last) AND \(SeedAuditEntry.outside(seeded)) GROUP BY g.order_id, g.granted_at) AS counted
            WHERE grants > audited ORDER BY granted_at LIMIT \(bind: limit)
            """
        ).map(UnauditedDelivery.init(row:))
    }

    /// The grant ids an old seed entry's detail names.
    static func seedGrantIds(in detail: String) -> ClosedRange<Int64>? {
        guard let range = detail.range(of: "; grants #") else { return nil }
        let bounds = detail[range.upperBound...].split(separator: "–#")
        guard bounds.count == 2, let low = Int64(bounds[0]), let high = Int64(bounds[1]), low <= high else { return nil }
        return low...high
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
