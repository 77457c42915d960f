import OrderDomain

/// How a piece of presented text reads, named by what it means. The console maps each tone
/// to a theme role; plain text output ignores it.
public enum Tone: Sendable, Equatable {
    case plain
    /// Secondary: times, ids the eye skips, settled facts.
    case muted
    /// Needs someone: an error, a dead job, a sandbox purchase in production.
    case alert
    /// A check that passed, a delivery.
    case passed
    /// A check that failed, a refusal, a revoke.
    case failed
    /// A section's heading.
    case heading
    /// The line a page is about among its kind (the order's own transaction in a receipt).
    case marked
    /// An order state, in its state's colour.
    case state(OrderState)
}
