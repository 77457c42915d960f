import Foundation
import OrderDomain
import OrderStore
import SyntheticData
import TestSupport
import Testing

@testable import IAPDeskApp
@testable import IAPDeskCLI

/// With the built binary: a key made by `audit new-key`, a store signed with it,
/// and `audit verify` with a witness file finding what someone with the database did.
@Suite("audit commands", .needsBinary)
struct AuditCommandTests {
    @Test("new-key writes an owner-only key once; verify signs, writes a witness, and later finds a truncated log and a hand-written grant (exit 1)")
    func keyWitnessAndTampering() async throws {
        let folder = Scratch.url("iapdesk-audit-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (keyFile, db, witness) = (folder + "/audit.key", folder + "/store.sqlite", folder + "/audit.witness")

        let (made, said, _) = try await CLIErrorTests.run(["audit", "new-key", keyFile])
        let material = try String(contentsOfFile: keyFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let key = try AuditKey(material: Data(material.utf8))
        #expect(made == 0 && said.contains(key.fingerprint) && !said.contains(material), "\(said)")
        #expect((try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int) == 0o600)
        let (again, _, refused) = try await CLIErrorTests.run(["audit", "new-key", keyFile])
        #expect(again != 0 && refused.contains("File exists"), "\(refused)")
        #expect(try String(contentsOfFile: keyFile, encoding: .utf8).contains(material))  // not overwritten

        let env = ["IAPDESK_AUDIT_KEY_FILE": keyFile]
        let store = try await OrderStore.open(.sqlite(path: db), settings: StoreSettings(bundleId: DemoCatalogue.bundleId, auditKey: key))
        try await SyntheticStore(orders: 400, seed: 2).write(into: store)
        await store.close()

        let (intact, report, _) = try await CLIErrorTests.run(["audit", "verify", "--db", db, "--witness", witness], environment: env)
        #expect(intact == 0, "\(report)")
        #expect(report.contains("signed with audit key \(key.fingerprint) from entry 1: every MAC and the head's checked"), "\(report)")
        #expect(report.contains("deliveries: every grant has its audit entry"), "\(report)")
        #expect(FileManager.default.fileExists(atPath: witness))
        let (_, config, _) = try await CLIErrorTests.run(["config", "--db", db], environment: env)
        #expect(config.contains(key.fingerprint) && !config.contains(material), "\(config)")

        // Someone with the database drops the newest entries, moves the head back, and writes a grant.
        let sql =
            "DELETE FROM audit_log WHERE seq > (SELECT seq - 3 FROM audit_head); "
            + "UPDATE audit_head SET seq = seq - 3, hash = (SELECT hash FROM audit_log WHERE seq = (SELECT seq - 3 FROM audit_head)); "
            + "INSERT INTO grants (order_id, account_id, kind, operator, granted_at) SELECT order_id, account_id, 'manual', 'mallory', 1 FROM orders WHERE state = 'verify_retry' LIMIT 1;"
        #expect(system("sqlite3 '\(db)' \"\(sql)\"") == 0)
        let witnessBefore = try Data(contentsOf: URL(fileURLWithPath: witness))
        let (broken, found, _) = try await CLIErrorTests.run(["audit", "verify", "--db", db, "--witness", witness], environment: env)
        #expect(broken == 1, "\(found)")
        #expect(found.contains("it was truncated and its head moved back"), "\(found)")
        #expect(found.contains("deliveries BROKEN") && found.contains("granted at 1970-01-01T00:00:00Z"), "\(found)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: witness)) == witnessBefore)  // a broken run keeps the witness

        // Without the key, the store refuses writes; audit verify still reads the chain.
        let (refusedWrite, _, why) = try await CLIErrorTests.run(["operator", "add", "x", "--role", "admin", "--db", db])
        #expect(refusedWrite != 0 && why.contains("signed with audit key \(key.fingerprint)"), "\(why)")
    }
}
