/// The result of checking the audit chain (R10).
public enum AuditVerification: Sendable, Equatable {
    case intact(entries: Int64)
    /// The first entry whose hash or link does not match, and why.
    case broken(seq: Int64, why: String)
}

extension OrderStore {
    /// Walks the audit log in order and recomputes every hash.
    public func verifyAuditLog(batch: Int = 5000) async throws -> AuditVerification {
        var previous = AuditChain.genesis
        var expectedSeq: Int64 = 1
        while true {
            let rows = try await read { sql in
                try await sql.rows("""
                    SELECT seq, at, actor, role, action, target, reason, detail, prev_hash, hash FROM audit_log
                    WHERE seq >= \(bind: expectedSeq) ORDER BY seq LIMIT \(bind: batch)
                    """)
            }
            if rows.isEmpty { break }
            for row in rows {
                let seq = try row.int64("seq")
                if seq != expectedSeq { return .broken(seq: expectedSeq, why: "entry \(expectedSeq) is missing") }
                if try row.string("prev_hash") != previous { return .broken(seq: seq, why: "does not link to the entry before it") }
                let hash = AuditChain.hash(
                    previous: previous, seq: seq, at: try row.int64("at"), actor: try row.string("actor"), role: try row.string("role"),
                    action: try row.string("action"), target: try row.string("target"), reason: try row.optionalString("reason"),
                    detail: try row.string("detail"))
                if hash != (try row.string("hash")) { return .broken(seq: seq, why: "its content was changed after it was written") }
                previous = hash
                expectedSeq += 1
            }
        }
        let head = try await read { sql in try await sql.row("SELECT seq, hash FROM audit_head WHERE id = 1") }
        if let head, try head.int64("seq") != expectedSeq - 1 || head.string("hash") != previous {
            return .broken(seq: expectedSeq, why: "entries after \(expectedSeq - 1) were removed")
        }
        return .intact(entries: expectedSeq - 1)
    }
}
