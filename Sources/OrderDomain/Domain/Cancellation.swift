/// Why Apple took a purchase back (R9).
public enum Cancellation: String, Sendable, Codable {
    /// REFUND, or a cancellation date in an answer.
    case refund
    /// REVOKE: Family Sharing access withdrawn.
    case revoke
}
