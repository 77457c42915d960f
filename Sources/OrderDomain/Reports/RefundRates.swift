/// How much of what was delivered in a span was refunded since, per product, per game
/// account and per Apple Account: the cohort of orders delivered in the span,
/// and how many of them Apple has refunded, whenever it did.
public struct RefundRates: Sendable, Equatable {
    public struct Row: Sendable, Equatable {
        /// A product id, a game account id, or an Apple Account's `appTransactionId`.
        public var key: String
        public var delivered: Int64
        public var refunded: Int64
        /// For an Apple Account: how many game accounts it bought with.
        public var accounts: Int64?
        public var rate: Double { delivered == 0 ? 0 : Double(refunded) / Double(delivered) }

        package init(key: String, delivered: Int64, refunded: Int64, accounts: Int64? = nil) {
            self.key = key
            self.delivered = delivered
            self.refunded = refunded
            self.accounts = accounts
        }
    }

    public var from: Millis
    public var until: Millis
    /// Every product delivered in the span, by product id.
    public var byProduct: [Row]
    /// Game accounts with a refund, most refunds first.
    public var byAccount: [Row]
    /// Apple Accounts with a refund (known from StoreKit 2 and the Server API), most first.
    public var byAppleAccount: [Row]

    package init(from: Millis, until: Millis, byProduct: [Row], byAccount: [Row], byAppleAccount: [Row]) {
        self.from = from
        self.until = until
        self.byProduct = byProduct
        self.byAccount = byAccount
        self.byAppleAccount = byAppleAccount
    }
}
