import OrderDomain

extension OrderStore {
    /// What Apple says, applied: a verification's answer (R2–R9), re-verification one by one
    /// or in bulk, refunds and their reversal, history backfilled, whether Apple is failing.
    public var apple: AppleAnswers { AppleAnswers(store: self) }
}

/// What Apple said to one store (``OrderStore/apple``).
public struct AppleAnswers: Sendable {
    let store: OrderStore
}
