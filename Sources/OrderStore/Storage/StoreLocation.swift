import Foundation
import OrderDomain

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
        return PostgresURL(url)?.value("pooler") == "transaction"
    }

    /// A PostgreSQL URL naming several hosts (`db1:5432,db2:5432`) with
    /// `target_session_attrs=read-write`: each connection goes to the first host that takes
    /// writes, as libpq's does, so after a failover the store finds the promoted standby.
    /// Without it, the first host that answers.
    var wantsPrimary: Bool {
        guard case .postgres(let url) = self else { return false }
        return ["read-write", "primary"].contains(PostgresURL(url)?.value("target_session_attrs"))
    }

    /// For the header and logs: a PostgreSQL URL loses its password.
    public var description: String {
        switch self {
        case .sqlite(let path): return "sqlite:\(path)"
        case .postgres(let url):
            return PostgresURL(url)?.redacted ?? "postgres:(unparseable url)"
        }
    }
}
