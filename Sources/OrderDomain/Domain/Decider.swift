/// Who decided a subscription's owner (R8): the rule when a receipt arrived, Apple when its
/// notifications came before any order held the subscription (no owner yet), or the
/// operator who settled a dispute. Stored as `rule`, `apple` or the operator's name.
public enum Decider: Sendable, Hashable {
    case rule, apple
    case `operator`(String)

    /// The actor of a write: the rule for the store's own decisions, else the operator.
    public init(_ actor: Operator) {
        self = actor.isSystem ? .rule : .operator(actor.name)
    }

    public init(stored: String) {
        switch stored {
        case "rule": self = .rule
        case "apple": self = .apple
        default: self = .operator(stored)
        }
    }

    public var stored: String {
        switch self {
        case .rule: "rule"
        case .apple: "apple"
        case .operator(let name): name
        }
    }
}
