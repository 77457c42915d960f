/// Why the audit log (R10) refused a write or an anchor; none of them wrote anything. What an
/// admin does next is Presentation's to say (`ErrorWords`).
public enum AuditError: Error, Equatable, CustomStringConvertible {
    /// Signing needs a configured key of at least `minimumBytes`.
    case keyTooShort(minimumBytes: Int)
    case noKey
    /// Anchoring a broken log would vouch for it.
    case broken(seq: Int64, why: String)
    /// The log is keyed and this process has no audit key.
    case keyRequired(fingerprint: String)
    /// The log is keyed with another key than the one configured.
    case keyMismatch(store: String, configured: String)
    /// A key is configured, the log has entries and was never anchored.
    case notAnchored
    /// The head does not carry the key's MAC: moved by hand (a truncated
    /// log with its head set back) or restored from a copy.
    case headForged(seq: Int64)

    public var description: String {
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
