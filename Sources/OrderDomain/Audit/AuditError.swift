/// Why the audit log (R10) refused a write or an anchor; none of them wrote anything. What an
/// admin does next is Presentation's to say (`ErrorWords`).
public enum AuditError: Error, Equatable {
    /// Signing needs a configured key of at least `minimumBytes`.
    case keyTooShort(minimumBytes: Int)
    case noKey
    /// Anchoring a broken log would vouch for it.
    case broken(seq: Int64, why: AuditBreak)
    /// The log is keyed and this process has no audit key.
    case keyRequired(fingerprint: String)
    /// The log is keyed with another key than the one configured.
    case keyMismatch(store: String, configured: String)
    /// A key is configured, the log has entries and was never anchored.
    case notAnchored
    /// The head does not carry the key's MAC: moved by hand (a truncated
    /// log with its head set back) or restored from a copy.
    case headForged(seq: Int64)
}
