import SQLKit

/// Grants (deliveries, R11) that no audit entry records: rows written into `grants` by hand.
public struct UnauditedDelivery: Sendable, Equatable {
    public var orderId: String
    public var grantedAt: Millis
    /// Grant rows at that instant beyond the audit entries that record one.
    public var count: Int
}

/// The audit entry a bulk load (a seed) writes for the history it loads: the grants it made are its own.
enum SeedAuditEntry {
    static let action = "seed"
    static let target = AuditTarget.seed.description

    static func detail(orders: Int, grantIds: ClosedRange<Int64>?) -> String {
        "\(orders) synthetic orders" + (grantIds.map { "; grants #\($0.lowerBound)–#\($0.upperBound)" } ?? "")
    }

    /// The grant ids a seed entry's detail names.
    static func grantIds(in detail: String) -> ClosedRange<Int64>? {
        guard let range = detail.range(of: "; grants #") else { return nil }
        let bounds = detail[range.upperBound...].split(separator: "–#")
        guard bounds.count == 2, let low = Int64(bounds[0]), let high = Int64(bounds[1]), low <= high else { return nil }
        return low...high
    }
}

extension OrderStore {
    /// Every grant is written with the audit entry of its order's move to delivered, in the
    /// same transaction and so at the same instant; a seed's grants are named by its entry.
    /// Finds grants with no such entry (at most `limit`). Trustworthy as far as the audit
    /// log is: run after `verifyAuditLog`.
    public func unauditedDeliveries(limit: Int = 20) async throws -> [UnauditedDelivery] {
        try await read { sql in
            let seeded = try await sql.rows(
                """
                SELECT detail FROM audit_log WHERE target = \(bind: SeedAuditEntry.target) AND action = \(bind: SeedAuditEntry.action)
                """
            ).compactMap { SeedAuditEntry.grantIds(in: try $0.string("detail")) }
            var outsideSeeds: SQLQueryString = "1 = 1"
            for range in seeded {
                outsideSeeds = "\(outsideSeeds) AND NOT (g.id BETWEEN \(bind: range.lowerBound) AND \(bind: range.upperBound))"
            }
            return try await sql.rows(
                """
                SELECT order_id, granted_at, grants - audited AS unaudited FROM (
                  SELECT g.order_id, g.granted_at, COUNT(*) AS grants, (
                    SELECT COUNT(*) FROM audit_log a
                    WHERE a.target = \(bind: AuditTarget.order("").description) || g.order_id AND a.at = g.granted_at AND a.detail LIKE '%→ delivered%') AS audited
                  FROM grants g WHERE \(outsideSeeds) GROUP BY g.order_id, g.granted_at) AS counted
                WHERE grants > audited ORDER BY granted_at LIMIT \(bind: limit)
                """
            ).map {
                UnauditedDelivery(orderId: try $0.string("order_id"), grantedAt: try $0.int64("granted_at"), count: try $0.int("unaudited"))
            }
        }
    }
}
