/// An order as finance and exports read it: the order with when it was delivered and
/// refunded, and its catalogue price.
public struct OrderRecord: Sendable, Equatable {
    public var order: Order
    /// Its first delivery (automatic or by hand), if any.
    public var deliveredAt: Millis?
    /// When Apple refunded or revoked its purchase (the transaction's cancellation date).
    public var refundedAt: Millis?
    /// The catalogue's price for one unit, in minor units of `currency` (nil for a product
    /// the catalogue no longer lists). Apple's own price per storefront is not stored.
    public var priceMinor: Int64?
    public var currency: String?
    /// Where Apple sold it (its signed transaction's storefront, `USA`); nil when only
    /// verifyReceipt answered, which does not say.
    public var storefront: String?
    /// The app (bundle id) the order is for.
    public var app: String

    package init(
        order: Order, deliveredAt: Millis? = nil, refundedAt: Millis? = nil, priceMinor: Int64? = nil, currency: String? = nil, storefront: String? = nil,
        app: String
    ) {
        self.order = order
        self.deliveredAt = deliveredAt
        self.refundedAt = refundedAt
        self.priceMinor = priceMinor
        self.currency = currency
        self.storefront = storefront
        self.app = app
    }
}
