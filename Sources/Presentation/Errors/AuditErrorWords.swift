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
            "the audit log is broken at entry \(seq) (\(why)); anchoring would vouch for it, so nothing was written"
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
