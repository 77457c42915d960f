import Foundation
import OrderDomain
import SyntheticData
import TestSupport
import Testing

@testable import OrderStore

/// R10 anchored: someone who can write the database but does not hold the audit
/// key edits, forges, truncates or strips the log, or writes grants by hand; each is found.
@Suite("The audit chain signed with a key kept outside the store")
struct AuditKeyStoreTests {
    private static let key = try! AuditKey(material: Data(String(repeating: "k3y-", count: 10).utf8))
    private static let otherKey = try! AuditKey(material: Data(String(repeating: "0th3r", count: 8).utf8))
    private static let keyed = settings(key)

    private static func settings(_ key: AuditKey?) -> StoreSettings {
        var settings = StoreSettings.test
        settings.auditKey = key
        return settings
    }

    private func delivered(_ store: OrderStore, _ id: String, tid: String) async throws {
        let submission = try await store.paidOrder(id, account: "a1")
        _ = try await store.apple.apply(orderId: id, submissionId: submission, report: validReport([tx(tid, at: t0 + 100)]), at: t0 + 3000)
    }

    /// What someone with the database and without the key can do: recompute every hash from
    /// `seq` on after an edit, and move the head to match.
    private func rewriteChain(_ store: OrderStore, from seq: Int64) async throws {
        let sql = store.db.sql
        var previous = try await sql.row("SELECT hash FROM audit_log WHERE seq = \(bind: seq - 1)")?.string("hash") ?? AuditChain.genesis
        for row in try await sql.rows("SELECT * FROM audit_log WHERE seq >= \(bind: seq) ORDER BY seq") {
            let entrySeq = try row.int64("seq")
            let hash = AuditChain.hash(
                previous: previous, seq: entrySeq, at: try row.int64("at"), actor: try row.string("actor"), role: try row.string("role"),
                action: try row.string("action"), target: try row.string("target"), reason: try row.optionalString("reason"),
                detail: try row.string("detail"), grants: try AuditEntry(row: row).grants)
            try await sql.raw("UPDATE audit_log SET prev_hash = \(bind: previous), hash = \(bind: hash) WHERE seq = \(bind: entrySeq)").run()
            previous = hash
        }
        try await sql.raw("UPDATE audit_head SET hash = \(bind: previous) WHERE id = 1").run()
    }

    private func reopened(_ store: OrderStore, with key: AuditKey?, _ body: (OrderStore) async throws -> Void) async throws {
        try await withConnection(to: store.location, settings: Self.settings(key), body)
    }

    @Test("A store created with a key signs every entry from the first; the chain and every MAC verify", arguments: Backend.all)
    func signedFromTheStart(backend: Backend) async throws {
        try await withStore(backend, settings: Self.keyed) { store in
            try await delivered(store, "o1", tid: "900")
            let count = Int64(try await store.audit.entries().count)
            #expect(try await store.audit.verify() == .intact(entries: count))
            #expect(try await store.audit.signing() == AuditSigning(since: 1, fingerprint: Self.key.fingerprint))
            let unsigned = try await store.db.sql.row("SELECT COUNT(*) AS n FROM audit_log WHERE mac IS NULL")?.int("n")
            #expect(unsigned == 0)
            #expect(try await store.audit.unauditedDeliveries().isEmpty)
        }
    }

    @Test("An entry edited and the chain recomputed without the key: the hash chain holds, its MAC does not", arguments: Backend.all)
    func editedAndRechained(backend: Backend) async throws {
        try await withStore(backend, settings: Self.keyed) { store in
            try await delivered(store, "o1", tid: "901")
            try await store.db.sql.raw("UPDATE audit_log SET reason = 'nothing to see' WHERE seq = 3").run()
            try await rewriteChain(store, from: 3)
            try await reopened(store, with: nil) { (unkeyed: OrderStore) async throws in
                #expect(try await unkeyed.audit.verify() == .intact(entries: Int64(try await unkeyed.audit.entries().count)))  // what R10 alone sees
            }
            #expect(try await store.audit.verify() == .broken(seq: 3, why: .macMismatch))
        }
    }

    @Test("A forged entry appended with a hash but no MAC is found", arguments: Backend.all)
    func forgedEntry(backend: Backend) async throws {
        try await withStore(backend, settings: Self.keyed) { store in
            try await delivered(store, "o1", tid: "902")
            let head = try await AuditHead.read(store.db.sql)
            let seq = head.seq + 1
            let hash = AuditChain.hash(
                previous: head.hash, seq: seq, at: t0, actor: "root", role: "admin", action: "grant", target: "order:o9", reason: "trust me", detail: "",
                grants: nil)
            try await store.db.sql.raw(
                """
                INSERT INTO audit_log (seq, at, actor, role, action, target, reason, detail, prev_hash, hash)
                VALUES (\(bind: seq), \(bind: t0), 'root', 'admin', 'grant', 'order:o9', 'trust me', '', \(bind: head.hash), \(bind: hash))
                """
            ).run()
            try await store.db.sql.raw("UPDATE audit_head SET seq = \(bind: seq), hash = \(bind: hash) WHERE id = 1").run()
            #expect(
                try await store.audit.verify()
                    == .broken(seq: seq, why: .macMissing(signedSince: 1)))
        }
    }

    @Test("Truncated with its head moved back: found by the head's MAC and by a witness; writes refused until an admin anchors again", arguments: Backend.all)
    func truncatedAndRewound(backend: Backend) async throws {
        try await withStore(backend, settings: Self.keyed) { store in
            try await delivered(store, "o1", tid: "903")
            var witness: AuditWitness?
            #expect(try await store.audit.verify { witness = $0 }.isIntactForTest)
            let end = try #require(witness).seq
            try await store.db.sql.raw("DELETE FROM audit_log WHERE seq > \(bind: end - 2)").run()
            try await store.db.sql.raw(
                "UPDATE audit_head SET seq = \(bind: end - 2), hash = (SELECT hash FROM audit_log WHERE seq = \(bind: end - 2)) WHERE id = 1"
            ).run()

            #expect(
                try await store.audit.verify()
                    == .broken(
                        seq: end - 2, why: .headNotSigned))
            guard case .broken(let seq, let why) = try await store.audit.verify(witness: witness) else { Issue.record("truncation not found"); return }
            #expect(seq == end - 1)
            guard case .truncatedBelowWitness(endsAt: end - 2, witnessed: end, _) = why else { Issue.record("\(why)"); return }
            await #expect(throws: AuditError.headForged(seq: end - 2)) { try await store.operators.add(name: "root", role: .admin, by: root) }

            await #expect(throws: StoreError.forbidden(action: .anchorAuditLog, role: .support)) {
                try await store.audit.anchor(reason: "looked", by: alice)
            }
            #expect(try await store.audit.anchor(reason: "restored from the 02:00 backup, ticket 77", by: root) == .signedAgain(headWas: end - 2))
            #expect(try await store.audit.verify() == .intact(entries: end - 1))
            try await store.operators.add(name: "root", role: .admin, by: root)
            #expect(try await store.audit.entries(limit: 2).last?.action == .auditAnchor)
        }
    }

    @Test("Grant rows written by hand are deliveries without an audit entry; real ones are not", arguments: Backend.all)
    func handWrittenGrant(backend: Backend) async throws {
        try await withStore(backend, settings: Self.keyed) { store in
            try await delivered(store, "o1", tid: "904")
            _ = try await store.paidOrder("o2", account: "a2")
            #expect(try await store.audit.unauditedDeliveries().isEmpty)
            // The delivery's entry names the grant it wrote; a range that is no range is an edit.
            let real = try #require(try await store.orders.detail("o1").grants.first)
            let recording = try #require(try await store.orders.detail("o1").audit.first { $0.grants != nil })
            #expect(recording.grants == real.id...real.id && recording.at == real.grantedAt && recording.detail.move?.to == .delivered)
            try await store.db.sql.raw("UPDATE audit_log SET grants_to = grants_from - 1 WHERE seq = \(bind: recording.seq)").run()
            #expect(
                try await store.audit.verify() == .broken(seq: recording.seq, why: .grantColumnsEdited))
            try await store.db.sql.raw("UPDATE audit_log SET grants_to = grants_from WHERE seq = \(bind: recording.seq)").run()
            #expect(try await store.audit.verify().isIntactForTest)
            try await store.db.sql.raw(
                """
                INSERT INTO grants (order_id, account_id, transaction_id, kind, operator, reason, granted_at)
                VALUES ('o2', 'a2', NULL, 'manual', 'mallory', 'x', \(bind: t0 + 50))
                """
            ).run()
            // A second grant for an order delivered once, at the instant of its real delivery.
            try await store.db.sql.raw("UPDATE grants SET revoked_at = \(bind: t0 + 4000) WHERE order_id = 'o1'").run()
            try await store.db.sql.raw(
                """
                INSERT INTO grants (order_id, account_id, transaction_id, kind, operator, reason, granted_at)
                VALUES ('o1', 'a1', '904', 'automatic', 'system', NULL, \(bind: real.grantedAt))
                """
            ).run()
            #expect(
                try await store.audit.unauditedDeliveries() == [
                    UnauditedDelivery(orderId: "o2", grantedAt: t0 + 50, count: 1),
                    UnauditedDelivery(orderId: "o1", grantedAt: real.grantedAt, count: 1),
                ])
        }
    }

    @Test("A keyed store refuses writes without its key or with another, and says which key; reading needs none", arguments: Backend.all)
    func keyRequired(backend: Backend) async throws {
        try await withStore(backend, settings: Self.keyed) { store in
            try await delivered(store, "o1", tid: "905")
            try await reopened(store, with: nil) { (unkeyed: OrderStore) async throws in
                await #expect(throws: AuditError.keyRequired(fingerprint: Self.key.fingerprint)) {
                    try await unkeyed.operators.add(name: "root", role: .admin, by: root)
                }
                #expect(try await unkeyed.orders.find("o1")?.state == .delivered)
                #expect(try await unkeyed.audit.verify().isIntactForTest)  // chain checked, MACs cannot be
            }
            try await reopened(store, with: Self.otherKey) { (other: OrderStore) async throws in
                await #expect(throws: AuditError.keyMismatch(store: Self.key.fingerprint, configured: Self.otherKey.fingerprint)) {
                    try await other.operators.add(name: "root", role: .admin, by: root)
                }
            }
            #expect(try await store.audit.verify().isIntactForTest)
        }
    }

    @Test("An unsigned log with entries is signed only from an admin's anchor; stripping MACs after that is found", arguments: Backend.all)
    func anchorAnUnsignedLog(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await delivered(store, "o1", tid: "906")
            let before = try await AuditHead.read(store.db.sql).seq
            try await reopened(store, with: Self.key) { (keyed: OrderStore) async throws in
                await #expect(throws: AuditError.notAnchored) { try await keyed.operators.add(name: "root", role: .admin, by: root) }
                await #expect(throws: StoreError.reasonRequired(action: .anchorAuditLog)) { try await keyed.audit.anchor(reason: " ", by: root) }
                #expect(
                    try await keyed.audit.anchor(reason: "key installed, ticket 12", by: root)
                        == .started(AuditSigning(since: before + 1, fingerprint: Self.key.fingerprint)))
                #expect(
                    try await keyed.audit.anchor(reason: "again", by: root)
                        == .alreadySigned(AuditSigning(since: before + 1, fingerprint: Self.key.fingerprint)))
                try await delivered(keyed, "o2", tid: "907")
                #expect(try await keyed.audit.verify() == .intact(entries: try await AuditHead.read(keyed.db.sql).seq))

                // Someone strips the MACs of the newest entries to rewrite them.
                let end = try await AuditHead.read(keyed.db.sql).seq
                try await keyed.db.sql.raw("UPDATE audit_log SET mac = NULL WHERE seq > \(bind: end - 2)").run()
                #expect(
                    try await keyed.audit.verify()
                        == .broken(
                            seq: end - 1, why: .macMissing(signedSince: before + 1)))
                // …or every MAC and the head's key: a keyed writer refuses to start signing it quietly.
                try await keyed.db.sql.raw("UPDATE audit_log SET mac = NULL").run()
                try await keyed.db.sql.raw("UPDATE audit_head SET mac = NULL, key_fingerprint = NULL, keyed_since = NULL WHERE id = 1").run()
                await #expect(throws: AuditError.notAnchored) { try await keyed.operators.add(name: "root", role: .admin, by: root) }
            }
        }
    }

    @Test("A seed into a keyed store signs what it writes, and its entry names the grants it made", arguments: Backend.all)
    func seededAndSigned(backend: Backend) async throws {
        let location = try await backend.freshLocation()
        defer { Backend.cleanUp(location) }
        let store = try await OrderStore.open(location, settings: Self.keyed)
        do {
            try await SyntheticStore(orders: 300, anchor: t0 + .hours(24 * 200)).write(into: store)
            let grants = try await store.db.sql.row("SELECT MIN(id) AS low, MAX(id) AS high FROM grants")
            let entry = try #require(try await store.audit.entries(limit: 1).first)
            #expect(entry.action == .seed)
            #expect(entry.detail == AuditDetail(.seed(orders: 300)))
            #expect(entry.grants == (try grants?.int64("low") ?? 0)...(try grants?.int64("high") ?? 0))
            #expect(try await store.audit.verify() == .intact(entries: entry.seq))
            #expect(try await store.audit.unauditedDeliveries().isEmpty)
            // The seed's entry is what vouches for its grants: its range is chained with it, and
            // without it they are unaccounted for.
            try await store.db.sql.raw("UPDATE audit_log SET grants_from = NULL, grants_to = NULL WHERE seq = \(bind: entry.seq)").run()
            #expect(try await store.audit.verify() == .broken(seq: entry.seq, why: .contentChanged))
            #expect(try await store.audit.unauditedDeliveries(limit: 5).count == 5)
            await store.close()
        } catch {
            await store.close()
            throw error
        }
    }
}

extension AuditVerification {
    var isIntactForTest: Bool { if case .intact = self { true } else { false } }
}
