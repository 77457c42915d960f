import OrderDomain
import Testing

@testable import OrderStore

@Suite("Audit actions")
struct AuditActionTests {
    static let all = AuditAction.known

    @Test("Each action has a spelling of its own, and the spellings older logs hold are kept")
    func spellings() {
        #expect(Set(Self.all.map(\.rawValue)).count == Self.all.count, "two actions share a spelling")
        #expect(AuditAction.verifyRejected.rawValue == "verify.rejected" && AuditAction.grant.rawValue == "grant")
        #expect(AuditAction.cancellationUnclaimed(.revoke).rawValue == "revoke.unclaimed")
        #expect(AuditAction.seed.rawValue == SeedAuditEntry.action)
        #expect(Self.all.allSatisfy { AuditAction(stored: $0.rawValue) == $0 }, "each reads back as itself")
        #expect(AuditAction(stored: "grant.someday") == .unknown("grant.someday"), "another version's action reads back as its spelling")
    }
}
