/// Deliveries or refunds in a span of time, totalled by product and environment as finance
/// reconciles them with Apple's reports (sandbox purchases apart: Apple pays nothing for them).
public struct FinanceReport: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// Deliveries made in the span (a grant, automatic or by hand).
        case deliveries
        /// Purchases the store refunded or revoked in the span (their cancellation date).
        case refunds
    }

    public struct Row: Sendable, Equatable {
        /// The store that was paid: its sales and refunds are reconciled with that store's reports.
        public var marketplace: Marketplace
        public var productId: String
        public var environment: AppleEnvironment?
        /// Deliveries or refunds.
        public var count: Int64
        /// The units they came to (an order of 3 packs is 3).
        public var units: Int64
        /// The catalogue's unit price and currency; nil for a product no longer listed.
        public var priceMinor: Int64?
        public var currency: String?
        public var amountMinor: Int64? { priceMinor.map { $0 * units } }

        package init(
            marketplace: Marketplace, productId: String, environment: AppleEnvironment?, count: Int64, units: Int64, priceMinor: Int64?, currency: String?
        ) {
            self.marketplace = marketplace
            self.productId = productId
            self.environment = environment
            self.count = count
            self.units = units
            self.priceMinor = priceMinor
            self.currency = currency
        }
    }

    public var kind: Kind
    public var from: Millis
    public var until: Millis
    /// By product, then environment.
    public var rows: [Row]

    package init(kind: Kind, from: Millis, until: Millis, rows: [Row]) {
        self.kind = kind
        self.from = from
        self.until = until
        self.rows = rows
    }
}
