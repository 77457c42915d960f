import OrderDomain

extension OrderStore {
    /// Support's notes on an order or an account.
    public var notes: Notes { Notes(store: self) }
}

/// Support's notes of one store (``OrderStore/notes``).
public struct Notes: Sendable {
    let store: OrderStore
}
