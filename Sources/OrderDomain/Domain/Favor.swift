/// Whom an operator's settlement of an R8 dispute favours: one type for the store, the
/// console's dialog and `order settle --favor`.
public enum Favor: String, Sendable, CaseIterable {
    /// The rule's verdict stands: the subscription's owner keeps it (the order is rejected).
    case owner
    /// The account that submitted the disputed renewal gets it (delivered; ownership moves).
    case submitter
}
