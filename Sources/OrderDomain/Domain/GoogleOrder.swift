/// What Google's Orders API said of one of its order ids (`GPA.…`), as the store reads it.
public enum GoogleOrderAnswer: Sendable, Equatable {
    /// Google knows the order: the purchase token it was paid under, its product and state
    /// (`PROCESSED`, `PENDING`, `REFUNDED`… as Google names it), in the studio's `package`.
    case found(purchaseToken: String, productId: String?, state: String, package: String)
    /// No package of the studio has such an order.
    case notFound
    /// Google could not be asked, or refused: why, as Google said it.
    case failed(String)
}

/// Where a Google order id nobody's id matched leads (``Orders/findGoogleOrder(_:asking:)``).
public enum GoogleOrderFinding: Sendable, Equatable {
    /// The orders that submitted its purchase token, or claim a purchase paid under it.
    case orders([Order], purchaseToken: String)
    /// Google knows the purchase, and no order has submitted its token: the game never heard
    /// of it (or logged it under another order).
    case unclaimed(purchaseToken: String, productId: String?, state: String, package: String)
    case notFound
    case failed(String)
}
