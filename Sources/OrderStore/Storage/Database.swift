import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import OrderDomain
import PostgresKit
import PostgresNIO
import SQLKit
import SQLiteKit
import SQLiteNIO

/// The two SQL dialects. Almost all SQL is shared; the few differences are named here.
public enum Dialect: String, Sendable {
    case sqlite, postgres

    /// An auto-numbered primary key column.
    var serialPrimaryKey: String {
        self == .sqlite ? "INTEGER PRIMARY KEY" : "BIGSERIAL PRIMARY KEY"
    }

    /// Starting a write transaction. SQLite takes the write lock up front so two writers
    /// queue on `busy_timeout` instead of failing half-way with SQLITE_BUSY.
    var beginWrite: String { self == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN" }
}

/// One connection to a store, SQLite or PostgreSQL, behind SQLKit's `SQLDatabase`.
/// All queries go through ``sql``; transactions are serialized by ``lock``.
///
/// On PostgreSQL every statement through ``sql`` has a deadline (``DeadlineSQLDatabase``);
/// the work that may rightly take minutes (migrations, index builds, a bulk load) uses
/// ``unboundedSQL``. SQLite runs in this process: its only waits, for another process's
/// write lock, follow the same deadline (``BusyBudgetSQLDatabase``).
final class Database: Sendable {
    /// The driver connection under SQLKit, for the seeder's bulk path and PostgreSQL's
    /// prepared statements.
    enum Driver: Sendable {
        case sqlite(SQLiteConnection)
        case postgres(PostgresConnection)
    }

    let sql: any SQLDatabase
    /// ``sql`` without the statement deadline: migrations, index repair, role setup, bulk load.
    let unboundedSQL: any SQLDatabase
    let driver: Driver
    let lock = AsyncLock()
    /// A SQLite file this process may only read (a viewer's account): opened read-only,
    /// nothing migrated or repaired, every write refused by SQLite itself.
    let readOnly: Bool
    /// For the driver's own calls (prepared statements); warnings only, never SQL text.
    let logger: Logger
    /// How long one statement may take, or wait on SQLite (``StoreSettings/databaseDeadline``).
    let deadline: Duration
    /// PostgreSQL reached straight, not through a transaction pooler: statements may be
    /// prepared once on the connection (``StoreLocation/behindTransactionPooler``).
    let prepares: Bool
    /// A PostgreSQL hot standby (`pg_is_in_recovery()`): it reads, and ``readOnly`` holds.
    let replica: Bool

    var dialect: Dialect {
        if case .sqlite = driver { return .sqlite }
        return .postgres
    }

    /// False once the connection closed (the server restarted or went away, or a statement
    /// missed its deadline): the pool drops it instead of handing it out.
    var isOpen: Bool {
        if let bounded = sql as? DeadlineSQLDatabase, bounded.hasExpired { return false }
        return switch driver {
        case .sqlite(let connection): !connection.isClosed
        case .postgres(let connection): !connection.isClosed
        }
    }

    private init(
        sql: any SQLDatabase, unboundedSQL: (any SQLDatabase)? = nil, driver: Driver, logger: Logger, deadline: Duration = .seconds(10),
        readOnly: Bool = false, prepares: Bool = false, replica: Bool = false
    ) {
        self.sql = sql
        self.prepares = prepares
        self.replica = replica
        self.deadline = deadline
        self.unboundedSQL = unboundedSQL ?? sql
        self.driver = driver
        self.logger = logger
        self.readOnly = readOnly
    }

    /// SQLite's URI for a read-only open of `path` (the driver opens with SQLITE_OPEN_URI).
    static func readOnlyURI(_ path: String) -> String {
        let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#"))) ?? path
        return "file:\(escaped)?mode=ro"
    }

    /// Opens one connection. `deadline` bounds each PostgreSQL statement and the connect,
    /// and each SQLite statement's wait for another process's write lock.
    static func open(_ location: StoreLocation, deadline: Duration = .seconds(10)) async throws -> Database {
        var logger = Logger(label: "iapdesk.store")
        logger.logLevel = .warning  // SQL text may carry ids; never log it by default
        switch location {
        case .sqlite(let path):
            // A file that exists but that this user may not write: read-only, so a viewer
            // needs no write access (and so cannot promote themselves through iapdesk).
            let readOnly = FileManager.default.fileExists(atPath: path) && access(path, W_OK) != 0
            // A new store is the service account's alone: created 0600, and SQLite gives its
            // -wal and -shm files the database file's permissions.
            if !FileManager.default.fileExists(atPath: path) {
                FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
            }
            let connection: SQLiteConnection
            do {
                let storage: SQLiteConnection.Storage = readOnly ? .file(path: Self.readOnlyURI(path)) : .file(path: path)
                connection = try await SQLiteConnection.open(storage: storage, logger: logger)
            } catch {
                throw StoreSetupError.cannotOpen(location.description, String(describing: error))
            }
            let unbounded = SQLiteStoreDatabase(connection)
            let bounded = BusyBudgetSQLDatabase(database: unbounded, deadline: deadline)
            let db = Database(
                sql: bounded, unboundedSQL: bounded.ignoringBudget, driver: .sqlite(connection), logger: logger, deadline: deadline, readOnly: readOnly)
            // WAL lets readers (other consoles) work while one writer writes; busy_timeout
            // makes a second writer wait instead of failing, for as long as the call may.
            do {
                let busy = BusyBudgetSQLDatabase.pragma(deadline)
                let pragmas: [SQLQueryString] =
                    readOnly
                    ? [busy] : ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL", busy, "PRAGMA foreign_keys = ON"]
                for pragma in pragmas {
                    try await unbounded.raw(pragma).run()
                }
            } catch {
                await db.close()
                throw StoreSetupError.cannotOpen(location.description, String(describing: error))
            }
            return db
        case .postgres:
            // Host by host, as libpq does: the first that answers, or with
            // `target_session_attrs=read-write` the first that is not a standby.
            var refusals: [String] = []
            for var configuration in try location.postgresConfigurations() {
                let host = "\(configuration.host ?? "?"):\(configuration.port ?? 5432)"
                do {
                    configuration.options.connectTimeout = TimeAmount(try CallBudget.remaining(upTo: deadline))
                    let connection = try await PostgresConnection.connect(
                        on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: 1, logger: logger)
                    let unbounded = connection.sql(queryLogLevel: nil)
                    let bounded = DeadlineSQLDatabase(database: unbounded, deadline: deadline) { _ = connection.close() as EventLoopFuture<Void> }
                    // A hot standby answers reads and refuses every write: opened as a read-only
                    // store (nothing migrated or repaired, operators viewers), which says so.
                    let replica: Bool
                    do {
                        replica = try await bounded.row("SELECT pg_is_in_recovery() AS standby")?.raw.decode(column: "standby", as: Bool.self) ?? false
                    } catch {
                        _ = try? await connection.close().get()
                        throw error
                    }
                    if replica, location.wantsPrimary {
                        _ = try? await connection.close().get()
                        refusals.append("\(host) is a standby")
                        continue
                    }
                    return Database(
                        sql: bounded, unboundedSQL: unbounded, driver: .postgres(connection), logger: logger, deadline: deadline, readOnly: replica,
                        prepares: !location.behindTransactionPooler, replica: replica)
                } catch {
                    refusals.append("\(host): " + (DatabaseErrorText.describe(error) ?? String(reflecting: error)))
                }
            }
            throw StoreSetupError.cannotOpen(location.description, refusals.joined(separator: "; "))
        }
    }

    func close() async {
        switch driver {
        case .sqlite(let connection): try? await connection.close()
        case .postgres(let connection): try? await connection.close()
        }
    }
}

extension StoreLocation {
    /// Connection settings for a `postgres://` location's first host. Package-visible so the
    /// benchmark's raw connection reads URLs exactly as the store does.
    package func postgresConfiguration() throws -> PostgresConnection.Configuration {
        guard let first = try postgresConfigurations().first else { throw StoreSetupError.cannotOpen(description, "no host") }
        return first
    }

    /// Connection settings for each host a `postgres://` location names, in its order.
    func postgresConfigurations() throws -> [PostgresConnection.Configuration] {
        guard case .postgres(let url) = self else { throw StoreError.invalid(.notPostgres(location: "\(self)")) }
        guard let parts = PostgresURL(url) else {
            throw StoreSetupError.cannotOpen(description, "expected postgres://user[:password]@host[:port][,host2[:port]…]/database")
        }
        let tls: PostgresConnection.Configuration.TLS
        switch parts.value("sslmode") ?? "disable" {
        case "require", "verify-full":
            tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        default:
            tls = .disable
        }
        return parts.hosts.map { host in
            PostgresConnection.Configuration(
                host: host.name, port: host.port, username: parts.user ?? "postgres", password: parts.password, database: parts.database, tls: tls)
        }
    }
}
