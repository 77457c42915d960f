import OrderStore

extension StoreHealth.Outage {
    /// "store unreachable since 03:12 — PostgreSQL: the database system is shutting down
    /// (SQLSTATE 57P03); showing what was read before". The console keeps its last frame's
    /// data and refreshes on; the banner goes once the store answers.
    public var banner: String {
        "store unreachable since \(since.clockText) — \(why); showing what was read before"
    }
}
