import OrderDomain

/// Who decided a subscription's owner, as the owner line and the ownership history say it.
extension Decider {
    public var words: String {
        switch self {
        case .rule: "rule"
        case .apple: "Apple (no owner yet)"
        case .operator(let name): name
        }
    }
}
