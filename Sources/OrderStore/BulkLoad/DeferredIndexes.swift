import OrderDomain
import SQLKit

/// The indexes a bulk load builds once at the end instead of keeping up row by row: one
/// sorted build per index is far cheaper than a million scattered inserts into each.
///
/// Always the secondary indexes. On PostgreSQL also the primary keys and unique indexes of
/// the tables the load finds empty: claim keys and transaction ids arrive in no order, and
/// keeping their indexes during the COPY made PostgreSQL's side of it the slowest part of a
/// seed (the COPY of a million claims took 6.8 s with its key, 3.5 s with the key built
/// after). They are constraints (R7, R11): rebuilt inside the load's transaction, a duplicate
/// fails the whole load, as it would have failed the COPY. Tables that already hold rows
/// (the audit log, its head, the counters, the catalogue) keep theirs: the load appends to
/// them and updates them by key.
///
/// Definitions are read from the database's catalogue, so they always match what the
/// migrations created.
struct DeferredIndexes {
    /// What drops one index or key, and what builds it again.
    struct Deferred {
        let drop: SQLQueryString
        let create: SQLQueryString
    }

    let indexes: [Deferred]

    static func read(_ sql: any SQLDatabase, dialect: Dialect) async throws -> DeferredIndexes {
        guard dialect == .postgres else {
            let rows = try await sql.rows(
                "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%' ORDER BY name")
            return DeferredIndexes(
                indexes: try rows.map { Deferred(drop: "DROP INDEX \(ident: try $0.string("name"))", create: SQLQueryString(try $0.string("sql"))) })
        }
        var deferred: [Deferred] = []
        // Non-unique indexes, and unique ones that back no constraint (partial ones such as
        // "one grant per order"), with the table each is on.
        for row in try await sql.rows(
            """
            SELECT i.indexname AS name, i.tablename AS tbl, i.indexdef AS sql, i.indexdef LIKE 'CREATE UNIQUE%' AS is_unique
            FROM pg_indexes i
            WHERE i.schemaname = current_schema()
              AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = format('%I.%I', i.schemaname, i.indexname)::regclass)
            ORDER BY i.indexname
            """)
        {
            let unique = try row.raw.decode(column: "is_unique", as: Bool.self)
            if unique, try await holdsRows(sql, table: try row.string("tbl")) { continue }
            deferred.append(Deferred(drop: "DROP INDEX \(ident: try row.string("name"))", create: SQLQueryString(try row.string("sql"))))
        }
        for row in try await sql.rows(
            """
            SELECT c.conname AS name, t.relname AS tbl, pg_get_constraintdef(c.oid) AS def
            FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
            WHERE t.relnamespace = current_schema()::regnamespace AND c.contype IN ('p', 'u')
            ORDER BY c.conname
            """)
        {
            let (name, table) = (try row.string("name"), try row.string("tbl"))
            if try await holdsRows(sql, table: table) { continue }
            deferred.append(
                Deferred(
                    drop: "ALTER TABLE \(ident: table) DROP CONSTRAINT \(ident: name)",
                    create: "ALTER TABLE \(ident: table) ADD CONSTRAINT \(ident: name) \(unsafeRaw: try row.string("def"))"))
        }
        return DeferredIndexes(indexes: deferred)
    }

    private static func holdsRows(_ sql: any SQLDatabase, table: String) async throws -> Bool {
        try await sql.row("SELECT EXISTS (SELECT 1 FROM \(ident: table)) AS used")?.raw.decode(column: "used", as: Bool.self) ?? true
    }

    func drop(_ sql: any SQLDatabase) async throws {
        for index in indexes { try await sql.raw(index.drop).run() }
    }

    func create(_ sql: any SQLDatabase) async throws {
        for index in indexes { try await sql.raw(index.create).run() }
    }
}
