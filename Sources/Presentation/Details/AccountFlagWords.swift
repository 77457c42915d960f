import OrderDomain

/// An account's mark, as the account page says it.
extension AccountFlagKind {
    public var words: String {
        switch self {
        case .replay: "replay"
        case .doubleDelivery: "double delivery"
        }
    }
}
