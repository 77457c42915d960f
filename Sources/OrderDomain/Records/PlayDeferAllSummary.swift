/// What deferring every subscriber of a product came to.
public struct PlayDeferAllSummary: Sendable {
    public var total: Int
    public var done = 0
    public var deferred = 0
    /// The subscriptions Google (or the rules) turned down, with why.
    public var refused: [(originalTransactionId: String, refusal: Refusal)] = []

    /// Why one subscription was not deferred.
    public enum Refusal: Sendable {
        /// Google said no, in its own words.
        case google(String)
        /// The store (its rules, its database) refused before or after Google was asked.
        case failed(any Error)
    }

    public init(total: Int) { self.total = total }
}
