/// The four kinds of Apple in-app products. They decide how a purchase is keyed
/// against replays (R7) and whether ownership rules apply (R8).
public enum ProductType: String, Sendable, CaseIterable, Codable {
    case consumable
    case nonConsumable = "non_consumable"
    case autoRenewable = "auto_renewable"
    case nonRenewing = "non_renewing"
}

/// A product on sale. Prices are kept in minor units (cents, fen) to stay exact.
public struct Product: Sendable, Equatable, Codable {
    public var productId: String
    public var type: ProductType
    public var displayName: String
    public var priceMinor: Int64
    public var currency: String

    public init(productId: String, type: ProductType, displayName: String, priceMinor: Int64, currency: String) {
        self.productId = productId
        self.type = type
        self.displayName = displayName
        self.priceMinor = priceMinor
        self.currency = currency
    }
}
