import OrderDomain

extension OrderStore {
    /// What the desk counts: the header's counts, the stuck queue, finance, refund rates,
    /// the alerts for operators.
    public var reports: Reports { Reports(store: self) }
}

/// Reports over one store (``OrderStore/reports``).
public struct Reports: Sendable {
    let store: OrderStore
}
