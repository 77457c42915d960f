import OrderDomain

/// What acknowledging a Google Play purchase came to, said once for the console and the CLI.
public enum PlayAcknowledgeWords {
    public static func result(_ outcome: PlayAcknowledgeOutcome, orderId: String?) -> String {
        let order = orderId.map { "order \($0)" } ?? "the purchase"
        return switch outcome {
        case .acknowledged(let at, let consumed): "Google acknowledged \(order)\(consumed ? " and consumed it" : "") at \(TimeText.full(at))"
        case .alreadyDone: "\(order) was acknowledged already: Google is told once"
        case .notDelivered: "\(order) is not delivered: nothing to acknowledge yet (deliver it, or let the worker verify it, first)"
        case .failed(let refusal): "Google refused: \(refusal)"
        }
    }

    /// Whether the outcome is a failure an operator must see as one.
    public static func isFailure(_ outcome: PlayAcknowledgeOutcome) -> Bool {
        switch outcome {
        case .acknowledged, .alreadyDone: false
        case .notDelivered, .failed: true
        }
    }
}
