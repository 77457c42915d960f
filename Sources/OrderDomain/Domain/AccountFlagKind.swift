/// The marks R7 leaves on a game account for support to see. Stored as ``rawValue``.
public enum AccountFlagKind: String, Sendable, CaseIterable, Codable {
    /// It sent a receipt another order had already claimed.
    case replay
    /// One purchase was delivered to it and, as the game reported, to another account too.
    case doubleDelivery = "double_delivery"
}
