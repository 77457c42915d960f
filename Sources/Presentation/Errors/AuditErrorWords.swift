import OrderDomain

/// Why the audit log refused, in words.
extension AuditError {
    public var words: String {
        switch self {
        case .keyTooShort(let minimum):
            "an audit key needs at least \(minimum) bytes"
        case .noKey:
            "no audit key is configured (audit.key_file or IAPDESK_AUDIT_KEY_FILE)"
        case .broken(let seq, let why):
            "the audit log is broken at entry \(seq) (\(why.words)); anchoring would vouch for it, so nothing was written"
        case .keyRequired(let fingerprint):
            "this store's audit log is signed with audit key \(fingerprint) and no audit key is configured (audit.key_file or IAPDESK_AUDIT_KEY_FILE): nothing was written"
        case .keyMismatch(let store, let configured):
            "this store's audit log is signed with audit key \(store), not the configured key \(configured): nothing was written"
        case .notAnchored:
            "an audit key is configured but this store's audit log is not signed yet (nothing was written)"
        case .headForged(let seq):
            "the audit log's head (entry \(seq)) does not carry the audit key's MAC: it was moved outside iapdesk, as when a log is truncated and its head set back; writes are refused"
        }
    }
}

/// Where the audit chain stops proving itself, in words.
extension AuditBreak {
    public var words: String {
        switch self {
        case .truncatedBelowWitness(let endsAt, let witnessed, let verifiedAt):
            "the log ends at entry \(endsAt), but entry \(witnessed) was in it when verified at \(verifiedAt.iso8601): it was truncated and its head moved back"
        case .missing: "the entry is missing"
        case .unlinked: "does not link to the entry before it"
        case .grantColumnsEdited: "its grant columns name no range of grants: edited after it was written"
        case .contentChanged: "its content was changed after it was written"
        case .macMissing(let signedSince):
            "it carries no MAC though the log is signed from entry \(signedSince): written or rewritten without the audit key"
        case .macWhereUnsigned: "it carries a MAC though the head says the log is not signed there: the head was changed by hand"
        case .macMismatch: "its MAC does not match the audit key: written or changed without the key"
        case .rewrittenSinceWitness(let verifiedAt): "it is not the entry verified at \(verifiedAt.iso8601): the log was rewritten from here"
        case .entriesRemoved(let endsAt, let headSays): "the log ends at entry \(endsAt) but its head says \(headSays): entries were removed"
        case .headNotSigned: "the head is not signed by the audit key: the log was truncated and its head moved back, or the head was edited"
        }
    }
}
