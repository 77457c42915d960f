/// What an audit entry is about. The log keeps it as text (`order:ID`), inside the hash
/// chain, so its spelling never changes; this type is the only code that writes that text
/// or reads it back, and the console and the queries ask it, never the string.
public enum AuditTarget: Sendable, Hashable, CustomStringConvertible {
    case order(String)
    /// A subscription, or any purchase, by its original transaction id.
    case originalTransaction(String)
    case transaction(String)
    /// A Google Play purchase, by its purchase token.
    case purchaseToken(String)
    case product(String)
    case app(String)
    /// A notification, by its row id in the store.
    case notification(Int64)
    case operatorName(String)
    /// A game account (a note on it).
    case account(String)
    /// One of the worker's jobs, by its row id.
    case job(Int64)
    /// The audit log itself (an anchor).
    case auditLog
    /// A bulk load's history (a seed).
    case seed
    /// Text of no form above: an entry an older version wrote.
    case other(String)

    public var description: String {
        switch self {
        case .order(let id): "order:\(id)"
        case .originalTransaction(let id): "otid:\(id)"
        case .transaction(let id): "transaction:\(id)"
        case .purchaseToken(let token): "token:\(token)"
        case .product(let id): "product:\(id)"
        case .app(let id): "app:\(id)"
        case .notification(let id): "notification:\(id)"
        case .operatorName(let name): "operator:\(name)"
        case .account(let id): "account:\(id)"
        case .job(let id): "job:\(id)"
        case .auditLog: "audit"
        case .seed: "store:seed"
        case .other(let text): text
        }
    }

    /// The target a stored entry names. `tid:` is how entries before this type named a transaction.
    public init(stored text: String) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        let id = parts.count == 2 ? parts[1] : ""
        switch (parts.first ?? "", parts.count) {
        case ("order", 2): self = .order(id)
        case ("otid", 2): self = .originalTransaction(id)
        case ("transaction", 2), ("tid", 2): self = .transaction(id)
        case ("token", 2): self = .purchaseToken(id)
        case ("product", 2): self = .product(id)
        case ("app", 2): self = .app(id)
        case ("notification", 2): self = Int64(id).map { .notification($0) } ?? .other(text)
        case ("operator", 2): self = .operatorName(id)
        case ("account", 2): self = .account(id)
        case ("job", 2): self = Int64(id).map { .job($0) } ?? .other(text)
        case ("audit", 1): self = .auditLog
        case ("store", 2) where id == "seed": self = .seed
        default: self = .other(text)
        }
    }
}
