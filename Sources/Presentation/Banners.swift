import OrderDomain

// The banners the console shows on every screen while something is wrong, one per kind of
// trouble, in the words operators read.

extension StoreOutage {
    /// "store unreachable since 03:12 — PostgreSQL: the database system is shutting down
    /// (SQLSTATE 57P03); showing what was read before". The console keeps its last frame's
    /// data and refreshes on; the banner goes once the store answers.
    public var banner: String {
        "store unreachable since \(since.clockText) — \(why); showing what was read before"
    }
}

extension AppleOutage {
    /// "verifyReceipt failing since 03:12 — 212 orders waiting, none rejected".
    public var banner: String {
        let name = method == .verifyReceipt ? "verifyReceipt" : "App Store Server API"
        return "\(name) failing since \(since.clockText) — \(waiting) order\(waiting == 1 ? "" : "s") waiting, none rejected"
    }
}

extension GameEndpointOutage {
    /// "game endpoint failing since 03:12 — 1000+ events not confirmed, none lost".
    public var banner: String {
        "game endpoint failing since \(since.clockText) — \(StoreCounts.text(waiting)) event\(waiting == 1 ? "" : "s") not confirmed, none lost"
    }
}

extension StoreCounts {
    /// A capped count as the header, the banners and the CLI say it: "1000+" at the cap.
    public static func text(_ n: Int64) -> String { n >= cap ? "\(cap)+" : "\(n)" }
}
