import Foundation

/// A product as App Store Connect holds it: what the simulated Apple sells. Prices are in
/// Apple's milliunits (6.00 CNY is 6000), as `price` in a signed transaction.
public struct SimulatedProduct: Sendable, Equatable, Codable {
    /// Apple's subscription durations. Only auto-renewables have one: a non-renewing
    /// subscription's length is the app's business, and Apple signs no `expiresDate` for it.
    public enum Period: String, Sendable, Codable, CaseIterable {
        case week = "P1W", month = "P1M", twoMonths = "P2M", threeMonths = "P3M", sixMonths = "P6M", year = "P1Y"

        /// The end of a period starting at `start`, by the calendar (a year is a year), in UTC.
        public func end(from start: Date) -> Date {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
            let (component, value): (Calendar.Component, Int) =
                switch self {
                case .week: (.day, 7)
                case .month: (.month, 1)
                case .twoMonths: (.month, 2)
                case .threeMonths: (.month, 3)
                case .sixMonths: (.month, 6)
                case .year: (.year, 1)
                }
            return calendar.date(byAdding: component, value: value, to: start) ?? start.addingTimeInterval(30 * 86_400)
        }
    }

    public var productId: String
    public var kind: SimulatedPurchase.Kind
    public var priceMilli: Int64
    public var currency: String
    /// The subscription group (`subscriptionGroupIdentifier`) of an auto-renewable.
    public var group: String?
    /// Its level in the group: 1 is the highest service. Moving to a lower number is an
    /// upgrade (at once), to a higher a downgrade (at the next renewal), equal a crossgrade.
    public var level: Int?
    public var period: Period?
    /// The win-back offers a subscriber who left may redeem (App Store Connect's win-back
    /// offers): listed in an expired subscription's renewal info.
    public var winBackOffers: [String]?

    public init(
        _ productId: String, kind: SimulatedPurchase.Kind, priceMilli: Int64, currency: String = "CNY", group: String? = nil,
        level: Int? = nil, period: Period? = nil, winBackOffers: [String]? = nil
    ) {
        self.winBackOffers = kind == .autoRenewable ? winBackOffers : nil
        self.productId = productId
        self.kind = kind
        self.priceMilli = priceMilli
        self.currency = currency
        self.group = kind == .autoRenewable ? group ?? Self.defaultGroup : nil
        self.level = kind == .autoRenewable ? level ?? 1 : nil
        self.period = kind == .autoRenewable ? period ?? .month : nil
    }

    static let defaultGroup = "21000001"
}

/// The products the simulated App Store sells. The standard one is the demo game's, as its
/// App Store Connect would list them: coin packs, a non-consumable, a 30-day pass (non-renewing)
/// and the VIP group with a weekly, a monthly and a yearly level.
public struct SimulatedCatalogue: Sendable {
    public private(set) var products: [String: SimulatedProduct]

    public init(_ products: [SimulatedProduct]) {
        self.products = Dictionary(products.map { ($0.productId, $0) }, uniquingKeysWith: { $1 })
    }

    public subscript(productId: String) -> SimulatedProduct? { products[productId] }

    public mutating func add(_ product: SimulatedProduct) { products[product.productId] = product }

    /// The products of `group`, highest service first.
    public func group(_ id: String) -> [SimulatedProduct] {
        products.values.filter { $0.group == id }.sorted { ($0.level ?? 0, $0.productId) < ($1.level ?? 0, $1.productId) }
    }

    public static let vipGroup = "21000001"

    public static let standard = SimulatedCatalogue([
        SimulatedProduct("coins_60", kind: .consumable, priceMilli: 6_000),
        SimulatedProduct("coins_300", kind: .consumable, priceMilli: 30_000),
        SimulatedProduct("coins_980", kind: .consumable, priceMilli: 98_000),
        SimulatedProduct("gift_pack", kind: .consumable, priceMilli: 12_000),
        SimulatedProduct("no_ads", kind: .nonConsumable, priceMilli: 18_000),
        SimulatedProduct("pass_30d", kind: .nonRenewing, priceMilli: 30_000),
        SimulatedProduct("vip_yearly", kind: .autoRenewable, priceMilli: 258_000, group: vipGroup, level: 1, period: .year),
        SimulatedProduct(
            "vip_monthly", kind: .autoRenewable, priceMilli: 25_000, group: vipGroup, level: 2, period: .month, winBackOffers: ["vip_welcome_back"]),
        SimulatedProduct("vip_weekly", kind: .autoRenewable, priceMilli: 8_000, group: vipGroup, level: 3, period: .week),
    ])
}
