import OrderDomain

extension OrderStore {
    /// Auto-renewable subscriptions: who owns each (R8) and how that is settled by hand,
    /// their chain in time, the checks of their expiry.
    public var subscriptions: Subscriptions { Subscriptions(store: self) }
}

/// Subscriptions of one store (``OrderStore/subscriptions``).
public struct Subscriptions: Sendable {
    let store: OrderStore
}
