import Foundation
import OrderDomain
@_spi(BulkLoad) import OrderStore

/// Deterministic, realistic synthetic data for a game's order store (`iapdesk seed`).
///
/// The same `seed` and `anchor` always give the same store. Proportions follow a live
/// game: most orders delivered, some abandoned before payment, a few rejected (final
/// Apple codes, failed checks, replays), refunds, sandbox purchases by App Review, stuck
/// orders of every age (some past the R4 window, needing an operator), subscription
/// chains with renewals, Apple IDs shared between accounts with the R8 decisions that
/// produced, and orphan transactions.
///
/// Rows are written in bulk, bypassing the operations: history is generated already
/// consistent with the rules. The audit log records the exceptional events (manual
/// grants, refunds, replays, rejections, ownership decisions); routine automatic
/// deliveries of seeded history are not audited one by one.
///
/// It writes through the store's bulk load (`@_spi(BulkLoad)`), which keeps the tables'
/// layout, the audit chain and the counters; what the history holds is decided here.
public struct SyntheticStore: Sendable {
    public var orders: Int
    public var seed: UInt64
    /// "Now" for the generated history; the newest orders are minutes old at this time.
    public var anchor: Millis
    /// How far back the history reaches.
    public var span: Millis = .hours(24 * 180)
    /// With a signer, paid orders still waiting for Apple keep real signed receipts and the
    /// summary lists every paid purchase (for a simulator to adopt); without, every receipt
    /// is a placeholder.
    public var signer: SyntheticReceiptSigner?
    /// The share of orders paid at Google Play (0 to 1): `iapdesk-bench store` measures the
    /// budgets with half; the demo's history is the App Store's, and its Google Play tickets
    /// go through the Google Play simulator.
    public var playShare: Double = 0

    public init(orders: Int, seed: UInt64 = 1, anchor: Millis = .now(), signer: SyntheticReceiptSigner? = nil) {
        self.orders = orders
        self.seed = seed
        self.anchor = anchor
        self.signer = signer
    }

    public struct Summary: Sendable {
        public var orders: Int
        public var byState: [OrderState: Int64]
        public var transactions: Int
        public var orphans: Int
        public var subscriptions: Int
        public var disputes: Int
        /// Every paid purchase, when seeded with a signer.
        public var purchases: [SyntheticPurchase]
    }

    /// Writes the catalogue and `orders` orders into a store with no orders.
    @discardableResult
    public func write(into store: OrderStore, progress: (@Sendable (Int) -> Void)? = nil) async throws -> Summary {
        try await store.bulkLoad(products: DemoCatalogue.products, listedAt: anchor - span, at: anchor) { loader in
            var generator = Generator(plan: self, audit: loader.audit)
            try await load(&generator, loader: loader, progress: progress)
            let summary = Summary(
                orders: orders, byState: generator.stateCounts, transactions: generator.transactionCount,
                orphans: generator.orphanCount, subscriptions: generator.subscriptions.count, disputes: generator.disputeCount,
                purchases: generator.purchases)
            return (BulkLoadResult(orders: orders, stateCounts: generator.stateCounts, audit: generator.audit), summary)
        }
    }

    /// Writes the orders in batches, then what depends on all of them.
    private func load(_ generator: inout Generator, loader: BulkLoader, progress: (@Sendable (Int) -> Void)?) async throws {
        // Generating batch k+1 overlaps writing batch k: SQLite works on its own thread, so
        // both cores are busy.
        let batch = 20_000
        var done = 0
        var pending = try generator.rows(count: min(batch, orders))
        while true {
            let rows = pending
            let count = min(batch, orders - done)
            async let written: Void = loader.write(rows)
            let remaining = orders - done - count
            if remaining > 0 { pending = try generator.rows(count: min(batch, remaining)) }
            try await written
            done += count
            progress?(done)
            if remaining <= 0 { break }
        }
        try await loader.write(generator.subscriptionRows())
    }
}
