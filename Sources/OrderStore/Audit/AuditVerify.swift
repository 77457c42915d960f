import Foundation
import OrderDomain
import SQLKit

/// The result of checking the audit chain (R10).
public enum AuditVerification: Sendable, Equatable {
    case intact(entries: Int64)
    /// The first entry whose hash, link or MAC does not match, and why.
    case broken(seq: Int64, why: AuditBreak)
}

/// Where a keyed log starts being signed, and by which key (its fingerprint).
public struct AuditSigning: Sendable, Equatable {
    public var since: Int64
    public var fingerprint: String
}

/// A point of the log seen intact, kept outside the store by whoever verified it: a later
/// verification must find the same entry there, so a log truncated and rewound since,
/// or rewritten, is told from one that never went further.
public struct AuditWitness: Sendable, Equatable, Codable {
    public var seq: Int64
    public var hash: String
    public var verifiedAt: Millis

    public init(seq: Int64, hash: String, verifiedAt: Millis) {
        self.seq = seq
        self.hash = hash
        self.verifiedAt = verifiedAt
    }
}

extension AuditLog {
    /// Whether the log is signed with an audit key, from which entry and with which key.
    public func signing() async throws -> AuditSigning? {
        let head = try await store.read { sql in try await AuditHead.read(sql) }
        guard let fingerprint = head.keyFingerprint else { return nil }
        return AuditSigning(since: head.keyedSince ?? 1, fingerprint: fingerprint)
    }

    /// Walks the log up to its head and recomputes every hash; with the store's audit key,
    /// checks every MAC too (an entry changed, inserted or forged without the key) and the
    /// head's (a log truncated and its head moved back). With a `witness`, the entry it
    /// names must still be there, unchanged. Entries appended during the walk are left
    /// for the next one. `returning` receives the witness of the head verified.
    public func verify(
        witness: AuditWitness? = nil, batch: Int = 5000, ignoringHeadMAC: Bool = false,
        returning: ((AuditWitness) -> Void)? = nil
    ) async throws -> AuditVerification {
        let head = try await store.read { sql in try await AuditHead.read(sql) }
        let key = store.settings.auditKey
        if let key, let fingerprint = head.keyFingerprint, key.fingerprint != fingerprint {
            throw AuditError.keyMismatch(store: fingerprint, configured: key.fingerprint)
        }
        if let witness, witness.seq > head.seq {
            return .broken(
                seq: head.seq + 1,
                why: .truncatedBelowWitness(endsAt: head.seq, witnessed: witness.seq, verifiedAt: witness.verifiedAt))
        }
        let signedSince = head.keyFingerprint == nil ? nil : head.keyedSince ?? 1
        var previous = AuditChain.genesis
        var expectedSeq: Int64 = 1
        while expectedSeq <= head.seq {
            let rows = try await store.read { sql in
                try await sql.rows(
                    """
                    SELECT seq, at, actor, role, action, target, reason, detail, prev_hash, hash, mac, grants_from, grants_to, why FROM audit_log
                    WHERE seq >= \(bind: expectedSeq) AND seq <= \(bind: head.seq) ORDER BY seq LIMIT \(literal: batch)
                    """)
            }
            if rows.isEmpty { break }
            for row in rows {
                let seq = try row.int64("seq")
                if seq != expectedSeq { return .broken(seq: expectedSeq, why: .missing) }
                if try row.string("prev_hash") != previous { return .broken(seq: seq, why: .unlinked) }
                let grants: ClosedRange<Int64>?
                switch (try row.optionalInt64("grants_from"), try row.optionalInt64("grants_to")) {
                case (nil, nil): grants = nil
                case (let from?, let to?) where from <= to: grants = from...to
                default: return .broken(seq: seq, why: .grantColumnsEdited)
                }
                let hash = AuditChain.hash(
                    previous: previous, seq: seq, at: try row.int64("at"), actor: try row.string("actor"), role: try row.string("role"),
                    action: try row.string("action"), target: try row.string("target"), reason: try row.optionalString("reason"),
                    detail: try row.string("detail"), grants: grants, why: try row.optionalString("why"))
                if hash != (try row.string("hash")) { return .broken(seq: seq, why: .contentChanged) }
                if let why = Self.macProblem(try row.optionalString("mac"), hash: hash, seq: seq, signedSince: signedSince, key: key) {
                    return .broken(seq: seq, why: why)
                }
                if let witness, witness.seq == seq, witness.hash != hash {
                    return .broken(seq: seq, why: .rewrittenSinceWitness(verifiedAt: witness.verifiedAt))
                }
                previous = hash
                expectedSeq += 1
            }
        }
        if expectedSeq - 1 != head.seq || previous != head.hash {
            return .broken(seq: expectedSeq, why: .entriesRemoved(endsAt: expectedSeq - 1, headSays: head.seq))
        }
        if let key, head.keyFingerprint != nil, !ignoringHeadMAC, head.mac != key.headMAC(seq: head.seq, hash: head.hash) {
            return .broken(seq: head.seq, why: .headNotSigned)
        }
        returning?(AuditWitness(seq: head.seq, hash: head.hash, verifiedAt: .now()))
        return .intact(entries: head.seq)
    }

    /// What is wrong with one entry's MAC, if anything. Without the key only its presence
    /// is checked: a keyed log has a MAC on every entry from where signing began.
    private static func macProblem(_ mac: String?, hash: String, seq: Int64, signedSince: Int64?, key: AuditKey?) -> AuditBreak? {
        guard let mac else {
            if let signedSince, seq >= signedSince {
                return .macMissing(signedSince: signedSince)
            }
            return nil
        }
        guard let signedSince, seq >= signedSince else {
            return .macWhereUnsigned
        }
        if let key, mac != key.entryMAC(hash: hash) { return .macMismatch }
        return nil
    }
}
