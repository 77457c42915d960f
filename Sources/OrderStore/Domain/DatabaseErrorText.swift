import PostgresNIO

/// What an operator reads when the database itself refuses. PostgresNIO's errors print
/// "PSQLError – Generic description…" on purpose (their details may hold data); the
/// server's own message and SQLSTATE name the problem without the values involved.
public enum DatabaseErrorText {
    /// A readable line for a database error, or nil for any other error.
    public static func describe(_ error: any Error) -> String? {
        guard let error = error as? PSQLError else { return nil }
        if let info = error.serverInfo, let message = info[.message] {
            return "PostgreSQL: \(message)" + (info[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
        }
        if let underlying = error.underlying { return "PostgreSQL: \(error.code): \(underlying)" }
        return "PostgreSQL: \(error.code)"
    }
}
