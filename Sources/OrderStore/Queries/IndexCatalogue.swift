import OrderDomain
import SQLKit

extension OrderStore {
    /// Every index the store has, by name, from the database's own catalogue: what a check
    /// after a crash compares with a healthy store.
    public func indexNames() async throws -> [String] {
        try await read { sql in try await sql.indexNames(dialect) }
    }
}

extension SQLDatabase {
    /// Every index the database has, by name, from its own catalogue.
    func indexNames(_ dialect: Dialect) async throws -> [String] {
        let query: SQLQueryString =
            dialect == .sqlite
            ? "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex%' ORDER BY name"
            : "SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname"
        return try await rows(query).map { try $0.string("name") }
    }
}
