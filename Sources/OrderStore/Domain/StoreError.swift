/// Errors the store reports. Each says what happened and, where there is one, what the
/// operator can do about it.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    case cannotOpen(String, String)
    case corrupt(String)
    case notFound(kind: String, id: String)
    /// Optimistic concurrency: the order changed after the operator read it.
    case conflict(orderId: String, changedBy: String, at: Millis, version: Int64)
    /// R11: the order already has a live grant.
    case alreadyDelivered(orderId: String, by: String, at: Millis)
    case illegalTransition(orderId: String, from: OrderState, to: OrderState)
    case forbidden(action: String, role: Role)
    case reasonRequired(action: String)
    case invalid(String)
    case newerSchema(found: Int, known: Int)
    /// R8: a disputed renewal leaves only by settling, never by a plain grant.
    case mustSettleDispute(orderId: String)
    /// R5: a check turned down a transaction an operator tried to attach.
    case checkFailed(orderId: String, check: String, detail: String)
    /// R7: the purchase already delivered for another order.
    case replay(orderId: String, detail: String)
    /// An `Idempotency-Key` used before with a different request.
    case idempotencyMismatch(key: String)
    /// An order id placed before with another account, product or quantity.
    case orderMismatch(orderId: String)
    /// Another process (a worker, another operator's bulk run) is asking Apple about this
    /// order right now; asking again would be a second call for one answer.
    case verifyingElsewhere(orderId: String, by: String)
    /// R10 anchored: the log is keyed and this process has no audit key.
    case auditKeyRequired(fingerprint: String)
    /// R10 anchored: the log is keyed with another key than the one configured.
    case auditKeyMismatch(store: String, configured: String)
    /// R10 anchored: a key is configured, the log has entries and was never anchored.
    case auditNotAnchored
    /// R10 anchored: the head does not carry the key's MAC: moved by hand (a truncated
    /// log with its head set back) or restored from a copy.
    case auditHeadForged(seq: Int64)

    public var description: String {
        switch self {
        case .cannotOpen(let location, let why):
            "cannot open store \(location): \(why)"
        case .corrupt(let what):
            "store data is inconsistent: \(what)"
        case .notFound(let kind, let id):
            "no \(kind) \(id)"
        case .conflict(let orderId, let changedBy, let at, let version):
            "order \(orderId) was changed by \(changedBy) at \(at.iso8601) (now version \(version)); reload it and decide again"
        case .alreadyDelivered(let orderId, let by, let at):
            "order \(orderId) was already delivered by \(by) at \(at.iso8601); nothing was granted twice"
        case .illegalTransition(let orderId, let from, let to):
            "order \(orderId) cannot go from \(from.rawValue) to \(to.rawValue)"
        case .forbidden(let action, let role):
            "the \(role.rawValue) role may not \(action)"
        case .reasonRequired(let action):
            "\(action) needs a reason: it goes into the audit log"
        case .invalid(let what):
            what
        case .mustSettleDispute(let orderId):
            "order \(orderId) is a disputed renewal (R8): settle it (d in the console, `iapdesk order resolve`), which also closes its review"
        case .checkFailed(let orderId, let check, let detail):
            "order \(orderId): check failed: \(check): \(detail)"
        case .replay(let orderId, let detail):
            "order \(orderId) cannot take this purchase: \(detail)"
        case .idempotencyMismatch(let key):
            "Idempotency-Key \(key) was used before with a different request"
        case .orderMismatch(let orderId):
            "order \(orderId) exists with another account, product or quantity"
        case .verifyingElsewhere(let orderId, let by):
            "order \(orderId) is being verified by \(by) right now; its answer will be on the order"
        case .auditKeyRequired(let fingerprint):
            "this store's audit log is signed with audit key \(fingerprint) and no audit key is configured (audit.key_file or IAPDESK_AUDIT_KEY_FILE): nothing was written"
        case .auditKeyMismatch(let store, let configured):
            "this store's audit log is signed with audit key \(store), not the configured key \(configured): nothing was written"
        case .auditNotAnchored:
            "an audit key is configured but this store's audit log is not signed yet: an admin starts signing it with `iapdesk audit anchor --reason …` (nothing was written)"
        case .auditHeadForged(let seq):
            "the audit log's head (entry \(seq)) does not carry the audit key's MAC: it was moved outside iapdesk, as when a log is truncated and its head set back; writes are refused until `iapdesk audit verify` is read and an admin runs `iapdesk audit anchor --reason …`"
        case .newerSchema(let found, let known):
            "the store's schema is version \(found), newer than this iapdesk knows (\(known)); upgrade iapdesk"
        }
    }
}
