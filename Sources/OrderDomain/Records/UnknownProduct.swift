/// A product id Apple's transactions name that the catalogue lacks.
public struct UnknownProduct: Sendable, Equatable {
    public var productId: String
    /// Transactions of it the store kept; `orphans` of them claimed by no order.
    public var transactions: Int
    public var orphans: Int
    public var firstSeen: Millis
    public var lastSeen: Millis

    package init(productId: String, transactions: Int, orphans: Int, firstSeen: Millis, lastSeen: Millis) {
        self.productId = productId
        self.transactions = transactions
        self.orphans = orphans
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
    }
}
