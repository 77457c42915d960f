import OrderDomain
import SQLKit

/// The order store: one API over SQLite or PostgreSQL.
///
/// Every operation is one database transaction that writes its audit entries (R10);
/// operator actions use optimistic concurrency on the order's version. Queries page by
/// key and are each served by an index.
///
/// ```swift
/// let store = try await OrderStore.open(.sqlite(path: "iapdesk.sqlite"), settings: StoreSettings(bundleId: "com.studio.game"))
/// defer { Task { await store.close() } }
/// let stuck = try await store.reports.stuck(limit: 20).items
/// ```
///
/// See <doc:GettingStarted> for an order's whole life.
public final class OrderStore: Sendable {
    public let location: StoreLocation
    public let settings: StoreSettings
    /// The primary connection: migrations, role setup, seeding.
    var db: Database { pool.primary }
    /// Whether the database answered the last call, and if not since when (`/readyz`, the
    /// console's banner).
    public var health: StoreHealth { pool.health }
    let pool: ConnectionPool
    /// Rung after each commit that made a job due now: the idle worker in this process wakes.
    public let jobsDue = JobSignal()

    public var dialect: Dialect { db.dialect }
    /// A SQLite file this process may only read, or a PostgreSQL hot standby: everyone is a
    /// viewer here.
    public var isReadOnly: Bool { db.readOnly }
    /// Opened on a PostgreSQL hot standby: it reads what the primary wrote, some time after.
    public var isReplica: Bool { db.replica }

    /// How many write transactions are worth running at once: half the PostgreSQL pool
    /// (the rest serves reads and the worker); SQLite has one writer.
    public var concurrentWriters: Int { db.dialect == .postgres ? max(1, settings.postgresConnections / 2) : 1 }

    /// What opening found and repaired (indexes an interrupted seed left dropped), for the
    /// CLI and the console to say; empty on a healthy store.
    public let repairs: [StoreRepair]
    /// The highest role the database lets this login act as (PostgreSQL's group roles,
    /// `DatabaseRoles`); nil where the database does not cap it.
    public let databaseRoleCap: Role?
    /// The database login, when the database caps it: operators act under that name.
    public let databaseLogin: String?

    private init(location: StoreLocation, settings: StoreSettings, db: Database, repairs: [StoreRepair], login: DatabaseRoles.Login?) {
        self.location = location
        self.settings = settings
        let limit = db.dialect == .postgres ? settings.postgresConnections : 1
        let deadline = settings.databaseDeadline
        self.pool = ConnectionPool(primary: db, limit: limit, wait: deadline) { try await Database.open(location, deadline: deadline) }
        self.repairs = repairs
        self.databaseRoleCap = login?.cap
        self.databaseLogin = login?.name
    }

    /// Opens (creating if needed) and migrates the store, and rebuilds missing indexes.
    /// A login the database caps (not the owner) can change no schema: it finds it current.
    ///
    /// - Parameters:
    ///   - location: a SQLite file or a PostgreSQL URL (``StoreLocation``).
    ///   - settings: the app's bundle id and environment, the stuck threshold, the audit key.
    /// - Returns: the open store; what opening repaired is in ``repairs``.
    /// - Throws: `StoreSetupError/cannotOpen(_:_:)` when the database cannot be reached or the
    ///   file cannot be created; `StoreSetupError/newerSchema(found:known:)` for a store a newer
    ///   iapdesk wrote; `StoreSetupError/olderSchema(found:known:)` when a login that may not
    ///   migrate meets an old schema; `StoreSetupError/otherApp(store:configured:)` when the store
    ///   serves another app than the configured bundle id.
    ///
    /// ```swift
    /// let store = try await OrderStore.open(
    ///     .postgres(url: "postgres://iapdesk@db.internal/iapdesk"),
    ///     settings: StoreSettings(bundleId: "com.studio.game"))
    /// ```
    public static func open(_ location: StoreLocation, settings: StoreSettings) async throws -> OrderStore {
        var settings = settings
        let db = try await Database.open(location, deadline: settings.databaseDeadline)
        var repairs: [StoreRepair] = []
        let login: DatabaseRoles.Login?
        do {
            login = try await DatabaseRoles.cappedLogin(db.sql, dialect: db.dialect)
            let migrated = try await Migrations.run(on: db, ownsSchema: login == nil)
            // Tables a new version added get the group roles' grants, once they are in use.
            if migrated, db.dialect == .postgres, !(try await db.lock.run { try await DatabaseRoles.existingGroups(db.sql) }).isEmpty {
                do {
                    try await DatabaseRoles.apply(on: db)
                } catch {
                    repairs.append(.rolesNotGranted(why: DatabaseErrorText.describe(error) ?? "\(error)"))
                }
            }
            // Both stores' apps in one read; each store's are decided from it.
            let registered = try await db.lock.run {
                try await db.sql.rows("SELECT bundle_id, marketplace FROM apps ORDER BY added_at, bundle_id").map {
                    (id: try $0.string("bundle_id"), store: try $0.value("marketplace", as: Marketplace.self))
                }
            }
            (settings.bundleId, settings.apps) = try await Self.apps(
                of: db, registered: registered.filter { $0.store == .appStore }.map(\.id), configured: settings, recording: login == nil)
            settings.playApps = try await Self.playApps(
                of: db, registered: registered.filter { $0.store == .googlePlay }.map(\.id), configured: settings, recording: login == nil)
            let restored = login == nil ? try await Migrations.restoreMissingIndexes(on: db) : []
            if !restored.isEmpty {
                repairs.append(.indexesRebuilt(restored))
            }
        } catch {
            await db.close()
            throw error
        }
        return OrderStore(location: location, settings: settings, db: db, repairs: repairs, login: login)
    }

    /// The apps the store serves (`apps`), primary first: the configured first app when the
    /// store serves it. An empty store records the configured apps (when this login owns
    /// it). A configuration that names none of the store's apps is refused with both sets
    /// of names: it is another game's. A default configuration takes the store's apps.
    private static func apps(
        of db: Database, registered: [String], configured settings: StoreSettings, recording: Bool
    ) async throws -> (primary: String, all: [String]) {
        let configured = [settings.bundleId] + settings.apps.filter { $0 != settings.bundleId }
        if let first = registered.first {
            guard !settings.bundleIdConfigured || configured.contains(where: registered.contains) else {
                throw StoreSetupError.otherApp(store: registered.joined(separator: ", "), configured: configured.joined(separator: ", "))
            }
            let primary = settings.bundleIdConfigured ? configured.first(where: registered.contains) ?? first : first
            return (primary, [primary] + registered.filter { $0 != primary })
        }
        if settings.bundleIdConfigured, recording, !db.readOnly {
            try await db.lock.run {
                try await db.sql.writeTransaction(db.dialect) {
                    for (index, app) in configured.enumerated() {
                        try await db.sql.raw(
                            """
                            INSERT INTO apps (bundle_id, marketplace, game, added_at) VALUES (\(bind: app), 'app_store', \(bind: app), \(bind: Int64(index)))
                            ON CONFLICT (bundle_id, marketplace) DO NOTHING
                            """
                        )
                        .run()
                    }
                    // What the store held before it knew its app is the first app's.
                    try await db.sql.raw("UPDATE products SET app = \(bind: settings.bundleId) WHERE app IS NULL").run()
                    try await db.sql.raw("UPDATE notifications SET app = \(bind: settings.bundleId) WHERE app IS NULL").run()
                    try await db.sql.raw("UPDATE orders SET app = \(bind: settings.bundleId) WHERE app IS NULL").run()
                }
            }
        }
        return (settings.bundleId, configured)
    }

    /// The Google Play packages the store serves. A package the configuration names
    /// (`google_play.package_names`) and the store does not record yet is recorded when this
    /// login owns the store, in the game of the App Store app with its id (studios often give
    /// both the same), else the store's first app's; `iapdesk app add` names another game.
    private static func playApps(of db: Database, registered: [String], configured settings: StoreSettings, recording: Bool) async throws -> [String] {
        let missing = settings.playApps.filter { !registered.contains($0) }
        // Written only when one is missing: an open is a read.
        guard recording, !db.readOnly, !missing.isEmpty else { return registered }
        try await db.lock.run {
            try await db.sql.writeTransaction(db.dialect) {
                for package in missing {
                    let game = settings.apps.contains(package) ? package : settings.bundleId
                    try await db.sql.raw(
                        """
                        INSERT INTO apps (bundle_id, marketplace, game, added_at) VALUES (\(bind: package), 'google_play', \(bind: game), \(bind: Millis.now()))
                        ON CONFLICT (bundle_id, marketplace) DO NOTHING
                        """
                    ).run()
                }
            }
        }
        // Recorded after those there were, in the configuration's order.
        return registered + missing
    }

    /// Whether the store takes writes now: a write that changes nothing but still reaches
    /// the disk. `serve` tries it while a write failed for the database's sake (a read-only
    /// or full disk), so ``health`` and `/readyz` turn ready again without traffic.
    ///
    /// - Throws: `StoreError/unavailable(_:)` while the store cannot write.
    public func checkWritable() async throws {
        try await write(as: .system) { tx in
            try await tx.sql.raw("UPDATE state_counts SET n = n WHERE state = \(bind: OrderState.pendingPayment.rawValue)").run()
        }
        health.writesWork()
    }

    /// Closes the database connections. Call it once, when nothing uses the store any more.
    public func close() async {
        await pool.close()
    }

    /// Runs `body` as one write transaction, then flushes the state counters and the audit
    /// entries it produced, in a fixed order so concurrent writers cannot deadlock.
    func write<T>(as actor: Operator, now: Millis = .now(), _ body: (WriteTransaction) async throws -> T) async throws -> T {
        try await pool.withConnection(writing: true) { db in
            let tx = WriteTransaction(database: db, actor: actor, now: now, auditKey: settings.auditKey)
            let result = try await db.sql.writeTransaction(db.dialect) {
                let result = try await body(tx)
                try await tx.flush()
                return result
            }
            if tx.madeJobDue { jobsDue.notify() }
            return result
        }
    }

    /// Group commit: `each` over many items in one write transaction, so one durable commit
    /// (one fsync) answers them all. The batch is tried whole first (the usual case, no
    /// savepoints); if one item fails it is done again with each item in a savepoint of
    /// its own, so it fails alone. `first` runs at the start of each try (a batch's reads in
    /// one statement). Throws only when the transaction itself fails, and then none is
    /// stored (at once when the database is unreachable).
    func writeBatch<Item, Output>(
        _ batch: [Item], at now: Millis, first: (WriteTransaction) async throws -> Void = { _ in },
        _ each: (WriteTransaction, Item) async throws -> Output
    ) async throws
        -> [Result<Output, any Error>]
    {
        func commit(isolating: Bool) async throws -> [Result<Output, any Error>] {
            try await write(as: .system, now: now) { tx in
                tx.isolating = isolating
                try await first(tx)
                var results: [Result<Output, any Error>] = []
                results.reserveCapacity(batch.count)
                for item in batch {
                    results.append(isolating ? try await tx.isolated { try await each(tx, item) } : .success(try await each(tx, item)))
                }
                return results
            }
        }
        do {
            return try await commit(isolating: false)
        } catch StoreError.unavailable(let why) {
            // The database is out of reach: trying each item apart would only wait again.
            throw StoreError.unavailable(why)
        } catch {
            // One item alone failed whole: that is its answer, and nothing was stored (no
            // savepoint round trips for the usual batch of one at low load).
            guard batch.count > 1 else { return [.failure(error)] }
            return try await commit(isolating: true)
        }
    }

    /// Runs read queries on a connection of the store's own.
    func read<T>(_ body: (any SQLDatabase) async throws -> T) async throws -> T {
        try await pool.withConnection { db in try await body(db.sql) }
    }

    /// `read` with the connection itself, for the driver's prepared statements.
    func readConnection<T>(_ body: (Database) async throws -> T) async throws -> T {
        try await pool.withConnection(body)
    }
}

extension OrderStore {
    /// R1 in a protocol: a caller told "stored" must find it after a power loss. SQLite in
    /// WAL mode with `synchronous = NORMAL` may lose the last commits then; `FULL` syncs
    /// the log on every commit. PostgreSQL's commit is durable already.
    public func makeCommitsDurable() async throws {
        guard dialect == .sqlite else { return }
        try await read { sql in try await sql.raw("PRAGMA synchronous = FULL").run() }
    }
}
