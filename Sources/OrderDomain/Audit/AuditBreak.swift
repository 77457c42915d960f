/// Where the audit chain (R10) stops proving itself, found by walking it: the first entry
/// that fails, and how. Presentation says each in words.
public enum AuditBreak: Sendable, Equatable {
    /// The log ends at `endsAt` though a witness saw entry `witnessed` in it at `verifiedAt`:
    /// truncated, and its head moved back.
    case truncatedBelowWitness(endsAt: Int64, witnessed: Int64, verifiedAt: Millis)
    case missing
    /// The entry does not link to the one before it.
    case unlinked
    /// Its grant columns name no range of grants: edited after it was written.
    case grantColumnsEdited
    /// Its hash does not match its content.
    case contentChanged
    /// No MAC on an entry of a log signed from `signedSince`.
    case macMissing(signedSince: Int64)
    /// A MAC where the head says the log is not signed: the head was changed by hand.
    case macWhereUnsigned
    /// Its MAC does not match the audit key.
    case macMismatch
    /// The entry a witness saw at `verifiedAt` has changed: the log was rewritten from here.
    case rewrittenSinceWitness(verifiedAt: Millis)
    /// The walk ends at `endsAt` but the head says `headSays`: entries were removed.
    case entriesRemoved(endsAt: Int64, headSays: Int64)
    /// The head does not carry the key's MAC.
    case headNotSigned
}
