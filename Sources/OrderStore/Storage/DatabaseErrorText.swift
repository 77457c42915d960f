import NIOCore
import OrderDomain
import PostgresNIO
import SQLiteNIO

/// What an operator reads when the database itself refuses. PostgresNIO's errors print
/// "PSQLError – Generic description…" on purpose (their details may hold data); the
/// server's own message and SQLSTATE name the problem without the values involved.
public enum DatabaseErrorText {
    /// A readable line for a database error, or nil for any other error.
    public static func describe(_ error: any Error) -> String? {
        switch error {
        case let error as PSQLError:
            if let info = error.serverInfo, let message = info[.message] {
                return "PostgreSQL: \(message)" + (info[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
            }
            if let underlying = error.underlying {
                // The cause may be a PSQLError too, whose description is the generic text.
                let cause = (underlying as? PSQLError).flatMap(describe) ?? String(describing: underlying)
                return "PostgreSQL: \(error.code): \(cause)"
            }
            return "PostgreSQL: \(error.code)"
        case let error as SQLiteError:
            return "SQLite: \(error.message) (\(error.reason))"
        case StoreSetupError.cannotOpen(_, let why):
            return why
        case let error as ChannelError:
            return "connection: \(error)"
        default:
            return nil
        }
    }

    /// Any error as one line for the store's own log lines (the listener's): the database's
    /// own words where it is a database error. Everything above the store says errors
    /// through Presentation's `ErrorWords`.
    static func readable(_ error: any Error) -> String {
        describe(error) ?? String(describing: error)
    }

    /// Why the database could not take the call right now, when that is the cause: the
    /// server gone or restarting, the connection dropped, the disk full, the file read-only.
    /// Nil for a refusal the call itself earned (a constraint, bad SQL), which retrying
    /// the same call would not cure.
    static func outage(_ error: any Error) -> String? {
        switch error {
        case let error as PSQLError:
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
                .sslUnsupported, .failedToAddSSLHandler:
                return describe(error)
            case .server:
                // Class 08: connection exception; 57P0x: shutting down, crashed, starting up;
                // 53xxx: out of disk, memory or connections.
                let state = error.serverInfo?[.sqlState] ?? ""
                let transient = state.hasPrefix("08") || state.hasPrefix("57P") || state.hasPrefix("53")
                return transient ? describe(error) : nil
            default:
                return nil
            }
        case let error as SQLiteError:
            switch error.reason {
            case .full, .readOnly, .ioError, .cantOpen, .busy, .locked, .noMemory, .readonlyCantLock, .readonlyDirectory,
                .ioErrorFailedWrite, .ioErrorFailedSync, .busyTimeout:
                return describe(error)
            default:
                return nil
            }
        case is ChannelError, is IOError:
            return describe(error) ?? String(describing: error)
        case StoreSetupError.cannotOpen(_, let why):
            // A new connection refused: the server is down or restarting.
            return why
        default:
            return nil
        }
    }

    /// PostgreSQL broke a deadlock or a serialization conflict by failing this transaction
    /// (SQLSTATE 40P01, 40001): the whole of it rolled back, and the server's own advice is
    /// to run it again.
    static func isTransactionRace(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, error.code == .server, let state = error.serverInfo?[.sqlState] else { return false }
        return state == "40P01" || state == "40001"
    }
}

// The drivers' errors say their words to Presentation, which links no driver.
extension DatabaseFailureText {
    public var databaseText: String { DatabaseErrorText.describe(self) ?? String(describing: self) }
}

extension PSQLError: DatabaseFailureText {}
extension SQLiteError: DatabaseFailureText {}
extension ChannelError: DatabaseFailureText {}
