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
        case .newerSchema(let found, let known):
            "the store's schema is version \(found), newer than this iapdesk knows (\(known)); upgrade iapdesk"
        }
    }
}
