import OrderDomain

extension OrderStore {
    /// A game account as support reads it: its orders, subscriptions and notes, and what it
    /// is entitled to now.
    public var accounts: Accounts { Accounts(store: self) }
}

/// Game accounts of one store (``OrderStore/accounts``).
public struct Accounts: Sendable {
    let store: OrderStore
}
