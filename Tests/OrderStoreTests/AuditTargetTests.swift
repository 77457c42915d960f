import OrderDomain
import Testing

@testable import OrderStore

/// What an audit entry is about is written and read by one type: every target reads back as
/// itself, entries older versions wrote still read, and unknown text is kept as it is.
@Suite("Audit targets")
struct AuditTargetTests {
    @Test("Every target reads back as itself; tid: is a transaction; unknown or malformed text stays other, never lost")
    func roundTrip() {
        let targets: [AuditTarget] = [
            .order("g-1"), .originalTransaction("2000000000000001"), .transaction("2000000000000002"), .product("gems_100"),
            .app("com.studio.kitten"), .notification(42), .operatorName("ada"), .account("player-1"), .job(7), .auditLog, .seed,
            .order("id:with:colons"),
        ]
        for target in targets { #expect(AuditTarget(stored: target.description) == target, "\(target)") }
        #expect(AuditTarget(stored: "tid:2000000000000003") == .transaction("2000000000000003"))
        for text in ["notification:x", "job:", "mystery:1", "", "order"] { #expect(AuditTarget(stored: text) == .other(text), "\(text)") }
    }
}
