import OrderDomain
import OrderStore

/// The game the demo and the synthetic data sell: coin packs, a non-consumable, a
/// non-renewing pass and a monthly VIP, with Chinese and English names, plus one product
/// whose name is hostile (escape sequences, a bidi override, overlong) to keep the
/// console honest.
public enum DemoCatalogue {
    public static let bundleId = "com.iapdesk.demo"

    public static let products: [Product] = [
        Product(productId: "coins_60", type: .consumable, displayName: "60 金币 · 60 Coins", priceMinor: 600, currency: "CNY"),
        Product(productId: "coins_300", type: .consumable, displayName: "300 金币 · 300 Coins", priceMinor: 3000, currency: "CNY"),
        Product(productId: "coins_980", type: .consumable, displayName: "980 金币（加赠 10%）· 980 Coins + 10%", priceMinor: 9800, currency: "CNY"),
        Product(productId: "no_ads", type: .nonConsumable, displayName: "永久去广告 · Remove Ads", priceMinor: 1800, currency: "CNY"),
        Product(productId: "pass_30d", type: .nonRenewing, displayName: "30 天战令 · 30-Day Battle Pass", priceMinor: 3000, currency: "CNY"),
        Product(productId: "vip_monthly", type: .autoRenewable, displayName: "月度 VIP · Monthly VIP", priceMinor: 2500, currency: "CNY"),
        Product(
            productId: "gift_pack", type: .consumable,
            displayName: "礼包\u{1B}[31m RED\u{1B}[0m \u{202E}kcap tfig\u{202C} " + String(repeating: "很长的名字 very long name ", count: 8),
            priceMinor: 1200, currency: "CNY"),
    ]

    /// A few account ids as hostile as real data gets: terminal escapes, CJK, bidi, overlong.
    static let hostileAccounts = [
        "player\u{1B}[2J\u{1B}[H-cleared",
        "玩家_小明_🐉",
        "acct\u{202E}nimda\u{202C}",
        "title\u{1B}]0;owned\u{07}",
        String(repeating: "long-account-id-", count: 12),
    ]
}
