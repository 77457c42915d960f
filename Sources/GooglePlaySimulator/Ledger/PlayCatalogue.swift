import Foundation

/// A product as Play Console holds it: what the simulated Google Play sells. Prices are in
/// Google's micros (6.00 CNY is 6,000,000).
public struct PlayProduct: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        case consumable
        case nonConsumable = "non_consumable"
        case subscription
    }

    public var productId: String
    public var kind: Kind
    public var priceMicros: Int64
    public var currency: String
    /// A subscription's base plan and its billing period (`P1W`, `P1M`, `P1Y`).
    public var basePlanId: String?
    public var period: String?

    public init(_ productId: String, kind: Kind, priceMicros: Int64, currency: String = "CNY", basePlanId: String? = nil, period: String? = nil) {
        self.productId = productId
        self.kind = kind
        self.priceMicros = priceMicros
        self.currency = currency
        self.basePlanId = kind == .subscription ? basePlanId ?? "monthly" : nil
        self.period = kind == .subscription ? period ?? "P1M" : nil
    }

    /// The end of a billing period that starts at `start`, by the calendar, in UTC.
    func periodEnd(from start: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let (component, value): (Calendar.Component, Int) =
            switch period {
            case "P1W": (.day, 7)
            case "P3M": (.month, 3)
            case "P6M": (.month, 6)
            case "P1Y": (.year, 1)
            default: (.month, 1)
            }
        return calendar.date(byAdding: component, value: value, to: start) ?? start.addingTimeInterval(30 * 86_400)
    }
}

/// The products the simulated Google Play sells: the demo game's, as its Play Console lists
/// them (the same product ids as on the App Store: one game, two stores).
public struct PlayCatalogue: Sendable {
    public private(set) var products: [String: PlayProduct]

    public init(_ products: [PlayProduct]) {
        self.products = Dictionary(products.map { ($0.productId, $0) }, uniquingKeysWith: { $1 })
    }

    public subscript(productId: String) -> PlayProduct? { products[productId] }

    public mutating func add(_ product: PlayProduct) { products[product.productId] = product }

    public static let standard = PlayCatalogue([
        PlayProduct("coins_60", kind: .consumable, priceMicros: 6_000_000),
        PlayProduct("coins_300", kind: .consumable, priceMicros: 30_000_000),
        PlayProduct("coins_980", kind: .consumable, priceMicros: 98_000_000),
        PlayProduct("no_ads", kind: .nonConsumable, priceMicros: 18_000_000),
        PlayProduct("vip_monthly", kind: .subscription, priceMicros: 25_000_000, basePlanId: "monthly", period: "P1M"),
        PlayProduct("vip_yearly", kind: .subscription, priceMicros: 258_000_000, basePlanId: "yearly", period: "P1Y"),
    ])
}
