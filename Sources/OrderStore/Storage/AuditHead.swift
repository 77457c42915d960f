import OrderDomain
import SQLKit

/// The row every audit append updates first (R10): where the log ends and, once the log is
/// keyed, the MAC proving that it ends there and the fingerprint of the key that signs it.
struct AuditHead: StoredRecord {
    var seq: Int64
    var hash: String
    var mac: String?
    var keyFingerprint: String?
    var keyedSince: Int64?

    enum Column: String, TableColumn {
        case seq, hash, mac, keyFingerprint = "key_fingerprint", keyedSince = "keyed_since"
    }

    init(_ row: Columns<Column>) throws {
        seq = try row.int64(.seq)
        hash = try row.string(.hash)
        mac = try row.optionalString(.mac)
        keyFingerprint = try row.optionalString(.keyFingerprint)
        keyedSince = try row.optionalInt64(.keyedSince)
    }

    static func read(_ sql: any SQLDatabase) async throws -> AuditHead {
        guard let row = try await sql.row("SELECT \(unsafeRaw: Column.list) FROM audit_head WHERE id = 1") else {
            throw StoreError.corrupt("audit_head row is missing")
        }
        return try AuditHead(row: row)
    }

    /// Whether a process holding `key` may extend the log as it finds it, and with which
    /// key it signs what it appends (nil: the log stays unkeyed). The one place this is decided.
    ///
    /// `anchoring` is an admin's `audit anchor`: it starts keying a log that has entries, or
    /// signs again the end of a keyed log whose head no longer carries the key's MAC.
    func signer(_ key: AuditKey?, anchoring: Bool = false) throws -> AuditKey? {
        guard let fingerprint = keyFingerprint else {
            guard let key else { return nil }
            // A log with entries starts being signed only by an explicit anchor: a writer that
            // quietly began signing a log whose MACs someone stripped would bless the rewrite.
            guard anchoring || seq == 0 else { throw AuditError.notAnchored }
            return key
        }
        guard let key else { throw AuditError.keyRequired(fingerprint: fingerprint) }
        guard key.fingerprint == fingerprint else { throw AuditError.keyMismatch(store: fingerprint, configured: key.fingerprint) }
        guard anchoring || mac == key.headMAC(seq: seq, hash: hash) else { throw AuditError.headForged(seq: seq) }
        return key
    }

    /// Moves the head to the last entry appended, signed when the log is keyed.
    static func advance(_ sql: any SQLDatabase, to seq: Int64, hash: String, signer: AuditKey?, firstAppended: Int64) async throws {
        try await sql.raw(advancing(to: seq, hash: hash, signer: signer, firstAppended: firstAppended)).run()
    }

    /// The statement `advance` runs, for a caller that sends it with the entries' insert.
    static func advancing(to seq: Int64, hash: String, signer: AuditKey?, firstAppended: Int64) -> SQLQueryString {
        guard let signer else { return "UPDATE audit_head SET seq = \(bind: seq), hash = \(bind: hash) WHERE id = 1" }
        return """
            UPDATE audit_head SET seq = \(bind: seq), hash = \(bind: hash), mac = \(bind: signer.headMAC(seq: seq, hash: hash)),
              key_fingerprint = \(bind: signer.fingerprint), keyed_since = COALESCE(keyed_since, \(bind: firstAppended))
            WHERE id = 1
            """
    }
}
