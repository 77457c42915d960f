import OrderDomain

/// What `audit anchor` did.
public enum AuditAnchorOutcome: Sendable, Equatable {
    /// The log was signed already, up to its head: nothing was written.
    case alreadySigned(AuditSigning)
    /// Signing began with the entry that records the anchor.
    case started(AuditSigning)
    /// The head had lost its MAC; the entry that records the anchor signs the end again.
    case signedAgain(headWas: Int64)
}

extension AuditLog {
    /// An admin starts signing the log with the configured audit key, or, after reading
    /// `audit verify`, signs again the end of a keyed log whose head lost its MAC (a
    /// restore from a copy, a truncation). Everything before must verify, MACs included:
    /// anchoring vouches for where the log ends, never for a rewrite inside it.
    public func anchor(reason: String, by actor: Operator) async throws -> AuditAnchorOutcome {
        try store.requireOperator(actor, may: .anchorAuditLog, reason: reason, minimum: .admin)
        guard let key = store.settings.auditKey else {
            throw AuditError.noKey
        }
        if case .broken(let seq, let why) = try await verify(ignoringHeadMAC: true) {
            throw AuditError.broken(seq: seq, why: why)
        }
        let head = try await store.read { sql in try await AuditHead.read(sql) }
        if head.keyFingerprint != nil, (try? head.signer(key)) != nil, let signing = try await signing() {
            return .alreadySigned(signing)
        }
        let wasSigned = head.keyFingerprint != nil
        try await store.write(as: actor) { tx in
            tx.anchoring = true
            tx.audit(
                .auditAnchor, target: .auditLog, reason: reason,
                wasSigned ? .anchorSignedAgain(headWas: head.seq) : .anchorSigningStarts(keyFingerprint: key.fingerprint))
        }
        if wasSigned { return .signedAgain(headWas: head.seq) }
        return .started(AuditSigning(since: head.seq + 1, fingerprint: key.fingerprint))
    }
}
