import Foundation
import SQLKit

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
/// Not part of the store's public API: it writes ten tables' rows and the audit chain
/// directly, which only the store may know the layout of, so it lives here behind the
/// `Seeding` SPI (`@_spi(Seeding) import OrderStore`) for `iapdesk seed`, the demo, the
/// benchmarks and the tests, rather than in a target that would need that layout public.
@_spi(Seeding)
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

    /// Writes the catalogue and `orders` orders into an empty store.
    @discardableResult
    public func write(into store: OrderStore, progress: (@Sendable (Int) -> Void)? = nil) async throws -> Summary {
        if try await store.counts().total > 0 {
            throw StoreError.storeNotEmpty(location: store.location.description)
        }
        for product in DemoCatalogue.products { try await store.upsertProduct(product, at: anchor - span) }
        var generator = Generator(plan: self)
        try await store.db.lock.run {
            let sql = store.db.sql
            let sqlite = store.dialect == .sqlite
            if sqlite {
                try await sql.raw("PRAGMA cache_size = -262144").run()
                // One transaction for the whole seed: in rollback-journal mode SQLite writes
                // the new pages straight into the file (the journal keeps only the few pages
                // that existed), where WAL would have to hold the whole seed until it commits.
                // Only possible with no other connection; WAL is back when the seed ends.
                _ = try? await sql.raw("PRAGMA journal_mode = DELETE").run()
            }
            do {
                // All or nothing: a seed killed midway rolls back to the empty store it
                // found, with its indexes (DDL is transactional on both backends) and an
                // audit head that matches the log.
                try await sql.writeTransaction(store.dialect) {
                    // The seeded history continues the audit chain the catalogue entries started.
                    let head = try await AuditHead.read(sql)
                    generator.auditSigner = try head.signer(store.settings.auditKey)
                    (generator.auditSeq, generator.auditHash, generator.firstAuditSeq) = (head.seq, head.hash, head.seq + 1)
                    generator.grantsBefore = try await sql.row("SELECT COALESCE(MAX(id), 0) AS id FROM grants")?.int64("id") ?? 0
                    let indexes = try await SecondaryIndexes.read(sql, dialect: store.dialect)
                    try await indexes.drop(sql)
                    try await load(&generator, sql: sql, writer: BulkWriter(driver: store.db.driver), dialect: store.dialect, progress: progress)
                    try await indexes.create(sql)
                }
            } catch {
                if sqlite { _ = try? await sql.raw("PRAGMA journal_mode = WAL").run() }
                throw error
            }
            if sqlite { try await sql.raw("PRAGMA journal_mode = WAL").run() }
            if store.dialect == .postgres { try await sql.raw("ANALYZE").run() } else { try await sql.raw("PRAGMA optimize").run() }
        }
        return Summary(
            orders: orders, byState: generator.stateCounts, transactions: generator.transactionCount,
            orphans: generator.orphanCount, subscriptions: generator.subscriptions.count, disputes: generator.disputeCount,
            purchases: generator.purchases)
    }

    /// Writes the orders in batches, then what depends on all of them.
    private func load(_ generator: inout Generator, sql: any SQLDatabase, writer: BulkWriter, dialect: Dialect, progress: (@Sendable (Int) -> Void)?)
        async throws
    {
        // Generating batch k+1 overlaps writing batch k: SQLite works on its own thread, so
        // both cores are busy.
        let batch = 20_000
        var done = 0
        var pending = try generator.rows(count: min(batch, orders))
        while true {
            let rows = pending
            let count = min(batch, orders - done)
            async let written: Void = rows.write(to: writer)
            let remaining = orders - done - count
            if remaining > 0 { pending = try generator.rows(count: min(batch, remaining)) }
            try await written
            done += count
            progress?(done)
            if remaining <= 0 { break }
        }
        try await generator.finish(sql: sql, writer: writer, dialect: dialect)
    }
}
