import Foundation
import OrderDomain

/// The catalogue as `iapdesk product` prints it, and prices as people type and read them.
public enum ProductPresentation {
    /// Currencies Apple prices without a minor unit.
    static let zeroDecimal: Set = ["JPY", "KRW", "VND", "CLP", "ISK", "HUF", "TWD", "UGX", "PYG", "IDR"]

    static func decimals(_ currency: String) -> Int { zeroDecimal.contains(currency) ? 0 : 2 }

    /// "6.00" in CNY is 600; "120" in JPY is 120. Nil for anything else.
    public static func minorUnits(_ price: String, currency: String) -> Int64? {
        let parts = price.split(separator: ".", omittingEmptySubsequences: false)
        let places = decimals(currency)
        guard (1...2).contains(parts.count), let whole = Int64(parts[0]), whole >= 0 else { return nil }
        let fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.count <= places, fraction.allSatisfy(\.isASCII), fraction.isEmpty || Int64(fraction) != nil else { return nil }
        let padded = fraction.padding(toLength: places, withPad: "0", startingAt: 0)
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        return whole * scale + (Int64(padded) ?? 0)
    }

    /// 600 CNY → "6.00 CNY".
    public static func price(_ minor: Int64, _ currency: String) -> String {
        let places = decimals(currency)
        guard places > 0 else { return "\(minor) \(currency)" }
        let text = String(format: "%lld.%0\(places)lld", minor / 100, minor % 100)
        return "\(text) \(currency)"
    }

    static func kind(_ p: Product) -> String {
        if let group = p.subscriptionGroup { return "\(p.type.rawValue), group \(group) level \(p.groupLevel ?? 0)" }
        if let days = p.durationDays { return "\(p.type.rawValue), \(days) days" }
        return p.type.rawValue
    }

    public static func listing() -> Listing<Product> {
        Listing(
            title: "Products", empty: "The catalogue is empty: `iapdesk product add` or `iapdesk product import FILE`.",
            columns: [
                ListColumn("PRODUCT", width: 14) { Cell($0.productId) },
                ListColumn("APP", width: 18) { Cell($0.app ?? "") },
                ListColumn("NAME", width: 14, flexible: true) { Cell($0.displayName) },
                ListColumn("TYPE", width: 20) { Cell(kind($0)) },
                ListColumn("PRICE", width: 12) { Cell(price($0.priceMinor, $0.currency)) },
                ListColumn("GIVES", width: 12) { Cell($0.givesText) },
                ListColumn("STATUS", width: 10) { p in p.retiredAt.map { Cell("retired \(TimeText.full($0))", .muted) } ?? Cell("on sale", .passed) },
            ])
    }

    public static func appListing() -> Listing<(app: StoreApp, products: Int)> {
        Listing(
            title: "Apps", empty: "This store records no app yet: it records the configured bundle id when its owner first opens it.",
            columns: [
                ListColumn("APP ID", width: 24) { Cell($0.app.bundleId) },
                ListColumn("STORE", width: 5) { Cell($0.app.marketplace.shortName, .muted) },
                ListColumn("GAME", width: 24, optional: true) { Cell($0.app.game == $0.app.bundleId ? "" : $0.app.game) },
                ListColumn("NAME", width: 16, flexible: true) { Cell($0.app.name ?? "") },
                ListColumn("APPLE ID", width: 12) { Cell($0.app.appleAppId.map(String.init) ?? "") },
                ListColumn("PRODUCTS", width: 8) { .count($0.products) },
            ])
    }

    /// What `app add` says once the app is recorded: where it sells and what comes next.
    public static func appAdded(_ app: StoreApp) -> String {
        let named = app.name.map { " (\($0))" } ?? ""
        let line = app.game == app.bundleId ? "" : " in the game \(app.game)"
        return switch app.marketplace {
        case .appStore: "this store serves \(app.bundleId)\(named)\(line): add its products with `iapdesk product add … --app \(app.game)`"
        case .googlePlay:
            "this store serves the Google Play package \(app.bundleId)\(named)\(line): it sells the products of \(app.game); "
                + "name it in [google_play] package_names"
        }
    }

    public static func unknownListing() -> Listing<UnknownProduct> {
        Listing(
            title: "Products Apple sold that the catalogue lacks", empty: "Every product Apple sold is in the catalogue.",
            columns: [
                ListColumn("PRODUCT", width: 16) { Cell($0.productId, .alert) },
                ListColumn("TRANSACTIONS", width: 12) { .count($0.transactions) },
                ListColumn("NO ORDER", width: 8) { .count($0.orphans, $0.orphans > 0 ? .alert : .plain) },
                ListColumn("FIRST SEEN", width: 16) { .time($0.firstSeen) },
                ListColumn("LAST SEEN", width: 16) { .time($0.lastSeen) },
            ])
    }
}
