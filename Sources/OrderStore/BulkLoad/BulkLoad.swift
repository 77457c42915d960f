import OrderDomain
import SQLKit

/// What a bulk load's body writes through, inside the load's one transaction.
@_spi(BulkLoad)
public struct BulkLoader: Sendable {
    let writer: BulkWriter
    /// The audit log as the load found it: the body appends its entries to a copy and
    /// hands that back in `BulkLoadResult`.
    public let audit: BulkAuditChain

    /// Writes one batch of rows, table by table.
    public func write(_ rows: BulkRows) async throws { try await rows.write(to: writer) }
}

/// What a bulk load's body reports once its rows are written.
@_spi(BulkLoad)
public struct BulkLoadResult: Sendable {
    /// How many orders the load wrote; the load's own audit entry says so.
    public var orders: Int
    /// Orders written per state, added to the counters the header reads.
    public var stateCounts: [OrderState: Int64]
    /// The audit chain with every entry the rows carry.
    public var audit: BulkAuditChain

    public init(orders: Int, stateCounts: [OrderState: Int64], audit: BulkAuditChain) {
        self.orders = orders
        self.stateCounts = stateCounts
        self.audit = audit
    }
}

extension OrderStore {
    /// Loads history that is already consistent with the rules into a store with no orders,
    /// in bulk and bypassing the operations (`iapdesk seed`, the demo, the benchmarks).
    ///
    /// All or nothing: one transaction, so a load killed midway leaves the empty store it
    /// found, with its indexes and an audit head that matches the log. Indexes (and, on
    /// PostgreSQL, the keys of the tables it starts empty) are dropped for the load and built
    /// once at the end (``DeferredIndexes``). The load writes its own audit entry,
    /// which names the grants it made (they have no entries of their own; see
    /// ``unauditedDeliveries(limit:)``), advances the audit head, the counters and the
    /// submissions' id sequence, and refreshes the planner's statistics.
    ///
    /// - Parameters:
    ///   - products: The catalogue the history sells, listed first through the operation that
    ///     lists a product (audited), at `listedAt`.
    ///   - now: When the load's own audit entry is dated.
    ///   - body: Writes the rows through the loader and reports what it wrote, with a value
    ///     of its own that the load returns once committed.
    /// - Throws: `StoreSetupError.storeNotEmpty` when the store has orders; whatever the body or
    ///   the database throws, after rolling back.
    @_spi(BulkLoad)
    public func bulkLoad<Loaded>(
        products: [Product], listedAt: Millis, at now: Millis, _ body: (BulkLoader) async throws -> (BulkLoadResult, Loaded)
    ) async throws -> Loaded {
        if try await reports.counts().total > 0 { throw StoreSetupError.storeNotEmpty(location: location.description) }
        for product in products { try await catalogue.upsert(product, at: listedAt) }
        let db = self.db
        return try await db.lock.run {
            let sql = db.unboundedSQL
            let sqlite = dialect == .sqlite
            if sqlite {
                try await sql.raw("PRAGMA cache_size = -262144").run()
                // In rollback-journal mode SQLite writes the new pages straight into the file
                // (the journal keeps only the few pages that existed), where WAL would have to
                // hold the whole load until it commits. Only possible with no other
                // connection; WAL is back when the load ends.
                _ = try? await sql.raw("PRAGMA journal_mode = DELETE").run()
            }
            let loaded: Loaded
            do {
                loaded = try await sql.writeTransaction(dialect) {
                    let head = try await AuditHead.read(sql)
                    let chain = BulkAuditChain(head: head, signer: try head.signer(settings.auditKey))
                    let grantsBefore = try await Self.lastGrantId(sql)
                    let indexes = try await DeferredIndexes.read(sql, dialect: dialect)
                    try await indexes.drop(sql)
                    let writer = BulkWriter(driver: db.driver)
                    let (result, loaded) = try await body(BulkLoader(writer: writer, audit: chain))
                    try await indexes.create(sql)
                    try await finish(result, at: now, grantsBefore: grantsBefore, sql: sql, writer: writer)
                    return loaded
                }
            } catch {
                if sqlite { _ = try? await sql.raw("PRAGMA journal_mode = WAL").run() }
                throw error
            }
            if sqlite { try await sql.raw("PRAGMA journal_mode = WAL").run() }
            try await sql.raw(sqlite ? "PRAGMA optimize" : "ANALYZE").run()
            return loaded
        }
    }

    /// Counters, the load's own audit entry, the audit head and the id sequence.
    private func finish(_ result: BulkLoadResult, at now: Millis, grantsBefore: Int64, sql: any SQLDatabase, writer: BulkWriter) async throws {
        for (state, n) in result.stateCounts.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            try await sql.raw("UPDATE state_counts SET n = n + \(bind: n) WHERE state = \(bind: state.rawValue)").run()
        }
        let grantsAfter = try await Self.lastGrantId(sql)
        var audit = result.audit
        var entry = BulkRows()
        try audit.append(
            to: &entry, at: now, actor: "system", role: .rule, action: .seed, target: .seed, reason: nil,
            detail: try SeedAuditEntry.detail(orders: result.orders), grants: grantsAfter > grantsBefore ? (grantsBefore + 1)...grantsAfter : nil)
        try await entry.write(to: writer)
        try await AuditHead.advance(sql, to: audit.seq, hash: audit.hash, signer: audit.signer, firstAppended: audit.firstAppended)
        if dialect == .postgres {  // explicit ids leave the sequence behind
            try await sql.raw(
                "SELECT setval(pg_get_serial_sequence('receipt_submissions', 'id'), (SELECT GREATEST(COALESCE(MAX(id), 0), 1) FROM receipt_submissions))"
            ).run()
        }
    }

    private static func lastGrantId(_ sql: any SQLDatabase) async throws -> Int64 {
        try await sql.row("SELECT COALESCE(MAX(id), 0) AS id FROM grants")?.int64("id") ?? 0
    }
}
