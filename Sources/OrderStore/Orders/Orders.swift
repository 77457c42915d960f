import OrderDomain

extension OrderStore {
    /// The orders themselves: placed, submitted, granted by hand or revoked, attached,
    /// imported; found by any id, paged, read in detail.
    public var orders: Orders { Orders(store: self) }
}

/// Orders of one store (``OrderStore/orders``).
public struct Orders: Sendable {
    let store: OrderStore
}
