import Foundation

/// Where a store lives: a SQLite file or a PostgreSQL server (`--db`, `IAPDESK_DB`).
public enum StoreLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(url: String)

    /// Where `iapdesk` looks without `--db` or `IAPDESK_DB`.
    public static let defaultSQLitePath = "./iapdesk.sqlite"

    /// A `postgres://` or `postgresql://` URL, or a SQLite file path.
    public init(_ text: String) {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(url: text)
        } else if text.hasPrefix("sqlite://") {
            self = .sqlite(path: String(text.dropFirst("sqlite://".count)))
        } else {
            self = .sqlite(path: text)
        }
    }

    /// A PostgreSQL URL with `pooler=transaction`: the server is reached through a pooler
    /// in transaction mode (PgBouncer's `pool_mode = transaction`), which hands each
    /// transaction to any of its server connections. What lives on a session does not
    /// follow: the store prepares no statement (each is parsed and planned per call) and
    /// does not LISTEN for other processes' jobs (workers find them by their idle poll).
    public var behindTransactionPooler: Bool {
        guard case .postgres(let url) = self else { return false }
        return URLComponents(string: url)?.queryItems?.contains { $0.name == "pooler" && $0.value == "transaction" } ?? false
    }

    /// For the header and logs: a PostgreSQL URL loses its password.
    public var description: String {
        switch self {
        case .sqlite(let path): return "sqlite:\(path)"
        case .postgres(let url):
            guard var parts = URLComponents(string: url) else { return "postgres:(unparseable url)" }
            if parts.password != nil { parts.password = "***" }
            return parts.string ?? "postgres"
        }
    }
}
