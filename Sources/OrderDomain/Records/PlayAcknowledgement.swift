/// What acknowledging a delivered Play purchase came to.
public enum PlayAcknowledgeOutcome: Sendable, Equatable {
    case acknowledged(at: Millis, consumed: Bool)
    /// Acknowledged (and consumed, if wanted) before: Google is told once.
    case alreadyDone
    /// Nothing to tell: no delivered order, nor a subscription's owner, holds the token.
    case notDelivered
    /// Google refused or could not be reached: the worker tries again on its schedule.
    case failed(String)
}

/// A paid Google Play purchase not yet acknowledged, and the order holding it.
public struct OwedAcknowledgement: Sendable, Equatable {
    public var purchase: StoredPlayPurchase
    /// Our order that claims or submitted it; nil while none does (Google told us first).
    public var orderId: String?

    package init(purchase: StoredPlayPurchase, orderId: String? = nil) {
        self.purchase = purchase
        self.orderId = orderId
    }
}
