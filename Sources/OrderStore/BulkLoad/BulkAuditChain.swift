import OrderDomain

/// The audit chain (R10) as a bulk load extends it: it starts where the log's head stands
/// and hashes, and signs when the log is keyed, each entry the load appends, so the loaded
/// history verifies like history the operations wrote.
@_spi(BulkLoad)
public struct BulkAuditChain: Sendable {
    public private(set) var seq: Int64
    var hash: String
    let signer: AuditKey?
    /// The first sequence number the load appends (where a keyed log's keying starts).
    let firstAppended: Int64

    init(head: AuditHead, signer: AuditKey?) {
        seq = head.seq
        hash = head.hash
        self.signer = signer
        firstAppended = head.seq + 1
    }

    /// Appends one entry to the chain and its row to `rows`; `detail` as its column keeps it
    /// (``AuditDetail/storedText()``: a load writes a few details many times, encoded once).
    public mutating func append(
        to rows: inout BulkRows, at: Millis, actor: String, role: AuditRole, action: AuditAction, target: AuditTarget, reason: String?,
        because why: Why? = nil, detail: String, grants: ClosedRange<Int64>? = nil
    ) throws {
        let why = try why?.json()
        let (action, role) = (action.rawValue, role.rawValue)
        seq += 1
        let next = AuditChain.hash(
            previous: hash, seq: seq, at: at, actor: actor, role: role, action: action, target: target.description, reason: reason, detail: detail,
            grants: grants, why: why)
        rows.audit.append([
            seq, at, actor, role, action, target.description, reason, detail, hash, next, signer?.entryMAC(hash: next), grants?.lowerBound,
            grants?.upperBound, why,
        ])
        hash = next
    }
}
