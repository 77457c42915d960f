import Foundation

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
    /// As players see it; any script (CJK included), sanitized where shown.
    public var displayName: String
    public var priceMinor: Int64
    public var currency: String
    /// Auto-renewable: the subscription group it belongs to (upgrades, downgrades and
    /// crossgrades happen within one) and its level there (1 is the highest service).
    public var subscriptionGroup: String?
    public var groupLevel: Int?
    /// Non-renewing: how long one purchase lasts. Apple gives no expiry for these; the app decides.
    public var durationDays: Int?
    /// When an admin retired it: no new order may name it; old ones keep it.
    public var retiredAt: Millis?
    /// What one unit gives in the game, as the game names its items (`gems` → 100): sent
    /// in every event's `effect`, so a game server needs no table of its own. Empty: the
    /// game knows the product by its id.
    public var gives: [String: Int] = [:]
    /// The app (bundle id) that sells it; its orders, subscriptions and events are that
    /// app's. Nil until stored: the store's own app when it serves one.
    public var app: String?

    public init(
        productId: String, type: ProductType, displayName: String, priceMinor: Int64, currency: String, subscriptionGroup: String? = nil,
        groupLevel: Int? = nil, durationDays: Int? = nil, retiredAt: Millis? = nil, gives: [String: Int] = [:], app: String? = nil
    ) {
        self.gives = gives
        self.app = app
        self.productId = productId
        self.type = type
        self.displayName = displayName
        self.priceMinor = priceMinor
        self.currency = currency
        self.subscriptionGroup = subscriptionGroup
        self.groupLevel = groupLevel
        self.durationDays = durationDays
        self.retiredAt = retiredAt
    }

    /// Why the catalogue cannot take it as it is, or nil.
    public var problem: ProductProblem? {
        if productId.isEmpty || productId.unicodeScalars.count > 200 { return .idLength }
        if displayName.trimmingCharacters(in: .whitespaces).isEmpty { return .nameRequired }
        if priceMinor < 0 { return .negativePrice }
        if currency.count != 3 || !currency.allSatisfy({ $0.isASCII && $0.isUppercase }) { return .currency(currency) }
        if type != .autoRenewable, subscriptionGroup != nil || groupLevel != nil { return .groupOnlyForAutoRenewable }
        if type == .autoRenewable, (subscriptionGroup == nil) != (groupLevel == nil) { return .groupAndLevelTogether }
        if let level = groupLevel, level < 1 { return .levelBelowOne }
        if type == .nonRenewing, durationDays == nil { return .durationRequired }
        if type != .nonRenewing, durationDays != nil { return .durationOnlyForNonRenewing }
        if let days = durationDays, !(1...3660).contains(days) { return .durationRange }
        if let item = gives.keys.sorted().first(where: { !Self.isItemName($0) }) { return .itemName(item) }
        if let item = gives.keys.sorted().first(where: { !(1...1_000_000_000).contains(gives[$0] ?? 0) }) { return .itemAmount(item) }
        return nil
    }

    package static func isItemName(_ name: String) -> Bool {
        (1...64).contains(name.count)
            && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0)) }
    }

    /// `gives` as the catalogue writes it: `gems:100,coins:5`, items in order.
    public var givesText: String { gives.keys.sorted().map { "\($0):\(gives[$0] ?? 0)" }.joined(separator: ",") }

    /// `gems:100,coins:5` (an item alone is one of it); nil for text that is not that.
    public static func gives(_ text: String) -> [String: Int]? {
        var items: [String: Int] = [:]
        for part in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !part.isEmpty {
            let pair = part.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let count = pair.count == 2 ? Int(pair[1]) : 1, items[pair[0]] == nil else { return nil }
            items[pair[0]] = count
        }
        return items
    }
}
