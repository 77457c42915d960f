import OrderDomain
import SQLKit

/// On PostgreSQL the database enforces iapdesk's roles too. Each role is a group
/// role (`iapdesk_viewer`, `iapdesk_support`, `iapdesk_admin`) granted exactly what that
/// role's operations write; an operator's database login is a member of one. The store's
/// owner (who migrates and seeds) is not capped. Nobody but the owner may update or delete
/// audit entries, and only admins write `operators`.
///
/// Once the group roles exist, iapdesk acts with the lower of the role the `operators`
/// table gives and the one the login's membership allows.
public enum DatabaseRoles {
    public static func group(_ role: Role) -> String { "iapdesk_\(role.rawValue)" }

    /// Tables the support role (and the server's login) writes, and which of them it may
    /// delete from (a finished job, an expired claim, a superseded raw notification).
    private static let written = [
        "orders", "receipt_submissions", "verification_attempts", "transactions", "claims", "grants", "subscriptions",
        "ownership_events", "account_flags", "products", "state_counts", "jobs", "idempotency_keys", "notifications",
        "service_state", "events", "event_attempts",
    ]
    private static let deletedFrom = ["jobs", "service_state", "claims", "notifications"]

    /// The statements that create the group roles (where missing) and grant them their
    /// privileges on this database; run by the owner, again after an upgrade adds tables.
    public static func setup(existing: Set<String>, schema: String) throws -> [String] {
        let schema = try quotedIdentifier(schema)
        let groups = Role.allCases.map(group)
        let actors = [group(.support), group(.admin)].joined(separator: ", ")
        // Roles are the cluster's: another database's owner may be creating the same one now.
        var statements = groups.filter { !existing.contains($0) }.map {
            "DO $$ BEGIN CREATE ROLE \($0) NOLOGIN; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$"
        }
        statements += [
            "GRANT USAGE ON SCHEMA \(schema) TO \(groups.joined(separator: ", "))",
            "GRANT SELECT ON ALL TABLES IN SCHEMA \(schema) TO \(groups.joined(separator: ", "))",
            "GRANT INSERT, UPDATE ON \(written.joined(separator: ", ")) TO \(actors)",
            "GRANT DELETE ON \(deletedFrom.joined(separator: ", ")) TO \(actors)",
            "GRANT INSERT ON audit_log TO \(actors)",
            "GRANT UPDATE ON audit_head TO \(actors)",
            "GRANT INSERT, UPDATE ON operators, apps TO \(group(.admin))",
            "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA \(schema) TO \(actors)",
        ]
        return statements
    }

    /// The statements that make `name` a login acting as `role`: created when missing,
    /// moved out of the other iapdesk groups.
    public static func login(_ name: String, role: Role, exists: Bool) throws -> [String] {
        let quoted = try quotedIdentifier(name)
        var statements = exists ? [] : ["CREATE ROLE \(quoted) LOGIN"]
        for other in Role.allCases where other != role { statements.append("REVOKE \(group(other)) FROM \(quoted)") }
        statements.append("GRANT \(group(role)) TO \(quoted)")
        return statements
    }

    /// A PostgreSQL identifier, quoted; names with control characters are refused.
    static func quotedIdentifier(_ name: String) throws -> String {
        guard !name.isEmpty, name.utf8.count <= 63, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw StoreError.invalid(.loginName)
        }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A login the database caps, and the highest role it may act as.
    struct Login {
        var name: String
        var cap: Role
    }

    /// The connected login when the database caps it; nil when it does not: SQLite, the
    /// owner or a superuser, or a cluster where the groups were never made.
    static func cappedLogin(_ sql: any SQLDatabase, dialect: Dialect) async throws -> Login? {
        guard dialect == .postgres else { return nil }
        guard
            let me = try await sql.row(
                """
                SELECT current_user AS name, r.rolsuper, pg_get_userbyid(c.relowner) = current_user AS owner FROM pg_roles r, pg_class c
                WHERE r.rolname = current_user AND c.relname = 'audit_log' AND c.relnamespace = to_regnamespace(current_schema())::oid
                """)
        else { return nil }
        if try me.raw.decode(column: "rolsuper", as: Bool.self) || me.raw.decode(column: "owner", as: Bool.self) { return nil }
        let groups = try await sql.rows(
            """
            SELECT rolname, pg_has_role(current_user, oid, 'MEMBER') AS member FROM pg_roles WHERE rolname LIKE 'iapdesk\\_%'
            """)
        if groups.isEmpty { return nil }
        var cap = Role.viewer
        for row in groups where try row.raw.decode(column: "member", as: Bool.self) {
            if let role = Role.allCases.first(where: { group($0) == (try? row.string("rolname")) }), role > cap { cap = role }
        }
        return Login(name: try me.string("name"), cap: cap)
    }

    /// Creates the missing groups and grants, in one transaction; returns what was run.
    @discardableResult
    static func apply(on db: Database) async throws -> [String] {
        try await db.lock.run { try await run(try await statements(on: db), on: db) }
    }

    /// Runs `statements` in one transaction (the caller holds the store's lock).
    private static func run(_ statements: [String], on db: Database) async throws -> [String] {
        try await db.unboundedSQL.writeTransaction(db.dialect) {
            for statement in statements { try await db.unboundedSQL.raw(SQLQueryString(statement)).run() }
        }
        return statements
    }

    /// Makes `name` a login in `role`'s group; the groups must exist.
    static func grantLogin(_ name: String, role: Role, on db: Database) async throws -> [String] {
        try await db.lock.run {
            guard try await existingGroups(db.sql).count == Role.allCases.count else {
                throw StoreSetupError.groupRolesMissing
            }
            let exists = try await db.sql.row("SELECT 1 AS one FROM pg_roles WHERE rolname = \(bind: name)") != nil
            return try await run(try login(name, role: role, exists: exists), on: db)
        }
    }

    static func requirePostgres(_ dialect: Dialect) throws {
        guard dialect == .postgres else { throw StoreSetupError.postgresOnly(what: "database roles and logins") }
    }

    static func statements(on db: Database) async throws -> [String] {
        let schema = try await db.sql.row("SELECT current_schema() AS name")?.string("name") ?? "public"
        return try setup(existing: try await existingGroups(db.sql), schema: schema)
    }

    /// The group roles that exist in the cluster.
    static func existingGroups(_ sql: any SQLDatabase) async throws -> Set<String> {
        Set(try await sql.rows("SELECT rolname FROM pg_roles WHERE rolname LIKE 'iapdesk\\_%'").map { try $0.string("rolname") })
    }
}

extension OrderStore {
    /// What `setUpDatabaseRoles` would run here, to read or hand to a database administrator.
    public func databaseRoleStatements() async throws -> [String] {
        try DatabaseRoles.requirePostgres(dialect)
        return try await db.lock.run { try await DatabaseRoles.statements(on: db) }
    }

    /// Creates the group roles where missing and grants their privileges on this database.
    /// Needs the store's owner with CREATEROLE (or a superuser). Returns what was run.
    public func setUpDatabaseRoles() async throws -> [String] {
        try DatabaseRoles.requirePostgres(dialect)
        return try await DatabaseRoles.apply(on: db)
    }

    /// Makes `name` a database login in the group of `role` (created when missing). Needs
    /// CREATEROLE. The `operators` table is changed separately (`operators.add`).
    public func grantDatabaseLogin(_ name: String, role: Role) async throws -> [String] {
        try DatabaseRoles.requirePostgres(dialect)
        return try await DatabaseRoles.grantLogin(name, role: role, on: db)
    }
}
