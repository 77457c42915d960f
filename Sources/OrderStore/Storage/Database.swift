import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
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

    /// A collation that orders text by its UTF-8 bytes, so that a prefix is one index
    /// range whatever the database's own collation is (an ICU or glibc locale orders
    /// "A2" between "a1" and "a2", and ignores some punctuation).
    var bytewise: String { self == .sqlite ? "BINARY" : "\"C\"" }
}

/// One connection to a store, SQLite or PostgreSQL, behind SQLKit's `SQLDatabase`.
/// All queries go through ``sql``; transactions are serialized by ``lock``.
final class Database: Sendable {
    /// The driver connection under SQLKit, for the seeder's bulk path and PostgreSQL's
    /// prepared statements.
    enum Driver: Sendable {
        case sqlite(SQLiteConnection)
        case postgres(PostgresConnection)
    }

    let sql: any SQLDatabase
    let driver: Driver
    let lock = AsyncLock()
    /// A SQLite file this process may only read (a viewer's account): opened read-only,
    /// nothing migrated or repaired, every write refused by SQLite itself.
    let readOnly: Bool
    /// For the driver's own calls (prepared statements); warnings only, never SQL text.
    let logger: Logger

    var dialect: Dialect {
        if case .sqlite = driver { return .sqlite }
        return .postgres
    }

    private init(sql: any SQLDatabase, driver: Driver, logger: Logger, readOnly: Bool = false) {
        self.sql = sql
        self.driver = driver
        self.logger = logger
        self.readOnly = readOnly
    }

    /// SQLite's URI for a read-only open of `path` (the driver opens with SQLITE_OPEN_URI).
    static func readOnlyURI(_ path: String) -> String {
        let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#"))) ?? path
        return "file:\(escaped)?mode=ro"
    }

    static func open(_ location: StoreLocation) async throws -> Database {
        var logger = Logger(label: "iapdesk.store")
        logger.logLevel = .warning  // SQL text may carry ids; never log it by default
        switch location {
        case .sqlite(let path):
            // A file that exists but that this user may not write: read-only, so a viewer
            // needs no write access (and so cannot promote themselves through iapdesk).
            let readOnly = FileManager.default.fileExists(atPath: path) && access(path, W_OK) != 0
            let connection: SQLiteConnection
            do {
                let storage: SQLiteConnection.Storage = readOnly ? .file(path: Self.readOnlyURI(path)) : .file(path: path)
                connection = try await SQLiteConnection.open(storage: storage, logger: logger)
            } catch {
                throw StoreError.cannotOpen(location.description, String(describing: error))
            }
            let db = Database(sql: connection.sql(queryLogLevel: nil), driver: .sqlite(connection), logger: logger, readOnly: readOnly)
            // WAL lets readers (other consoles) work while one writer writes; busy_timeout
            // makes a second writer wait instead of failing.
            do {
                let pragmas =
                    readOnly
                    ? ["PRAGMA busy_timeout = 10000"]
                    : ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL", "PRAGMA busy_timeout = 10000", "PRAGMA foreign_keys = ON"]
                for pragma in pragmas {
                    try await db.sql.raw(SQLQueryString(pragma)).run()
                }
            } catch {
                await db.close()
                throw StoreError.cannotOpen(location.description, String(describing: error))
            }
            return db
        case .postgres:
            let configuration = try location.postgresConfiguration()
            let connection: PostgresConnection
            do {
                connection = try await PostgresConnection.connect(
                    on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: 1, logger: logger)
            } catch {
                throw StoreError.cannotOpen(location.description, DatabaseErrorText.describe(error) ?? String(reflecting: error))
            }
            return Database(sql: connection.sql(queryLogLevel: nil), driver: .postgres(connection), logger: logger)
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
    /// Connection settings for a `postgres://` location. Package-visible so the benchmark's
    /// raw connection reads URLs exactly as the store does.
    package func postgresConfiguration() throws -> PostgresConnection.Configuration {
        guard case .postgres(let url) = self else { throw StoreError.invalid("\(self) is not a PostgreSQL location") }
        guard let parts = URLComponents(string: url), let host = parts.host, !host.isEmpty else {
            throw StoreError.cannotOpen(description, "expected postgres://user[:password]@host[:port]/database")
        }
        let database = parts.path.hasPrefix("/") ? String(parts.path.dropFirst()) : parts.path
        let sslMode = parts.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
        let tls: PostgresConnection.Configuration.TLS
        switch sslMode {
        case "require", "verify-full":
            tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        default:
            tls = .disable
        }
        return PostgresConnection.Configuration(
            host: host, port: parts.port ?? 5432, username: parts.user ?? "postgres",
            password: parts.password, database: database.isEmpty ? nil : database, tls: tls)
    }
}
