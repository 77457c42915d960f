import OrderDomain

extension OrderStore {
    /// Who may act on the store, and as what: the `operators` table, capped by the database
    /// login and `--readonly`.
    public var operators: Operators { Operators(store: self) }
}

/// The operators of one store (``OrderStore/operators``).
public struct Operators: Sendable {
    let store: OrderStore

    /// Gives an operator a role. The first operator of a new store may be added by anyone
    /// (bootstrap) and must be an admin; after that only admins add operators.
    public func add(name: String, role: Role, by actor: Operator, at now: Millis = .now()) async throws {
        guard !name.isEmpty else { throw StoreError.invalid(.emptyOperatorName) }
        try await store.write(as: actor, now: now) { tx in
            let count = try await tx.sql.row("SELECT COUNT(*) AS n FROM operators")?.int("n") ?? 0
            if count == 0 {
                guard role == .admin else { throw StoreError.firstOperatorMustBeAdmin }
            } else {
                // The table's word, never more than the caller was given (a database cap, --readonly).
                let actingRole = min(
                    try await tx.sql.row("SELECT role FROM operators WHERE name = \(bind: actor.name)")?.value("role", as: Role.self) ?? .viewer, actor.role)
                guard actingRole == .admin else { throw StoreError.forbidden(action: .addOperators, role: actingRole) }
            }
            try await tx.sql.raw(
                """
                INSERT INTO operators (name, role, added_at, added_by) VALUES (\(bind: name), \(bind: role.rawValue), \(bind: now), \(bind: actor.name))
                ON CONFLICT (name) DO UPDATE SET role = excluded.role
                """
            ).run()
            tx.audit(.operatorSetRole, target: .operatorName(name), .role(role))
        }
    }

    /// The role the store gives `name`; viewers are everyone else.
    public func role(of name: String) async throws -> Role {
        try await store.read { sql in
            try await sql.row("SELECT role FROM operators WHERE name = \(bind: name)")?.value("role", as: Role.self) ?? .viewer
        }
    }

    /// The acting identity for an OS user: the role the `operators` table gives, never more
    /// than the database lets this login act as, lowered by `--readonly`. A login the
    /// database caps is who the database authenticated: it acts under its own name.
    public func actor(forUser user: String, readOnly: Bool = false) async throws -> Operator {
        let name = store.databaseLogin ?? user
        var role = try await role(of: name)
        if let cap = store.databaseRoleCap { role = min(role, cap) }
        return Operator(name: name, role: readOnly || store.isReadOnly ? .viewer : role)
    }
}

/// An operator as `operator list` shows it.
public struct OperatorRecord: Sendable, Equatable {
    public var name: String
    public var role: Role
    public var addedAt: Millis
    public var addedBy: String
}

extension Operators {
    /// Every operator the store knows, by name.
    public func list() async throws -> [OperatorRecord] {
        try await store.read { sql in
            try await sql.rows("SELECT \(unsafeRaw: OperatorRecord.Column.list) FROM operators ORDER BY name").map(OperatorRecord.init(row:))
        }
    }
}

extension OperatorRecord: StoredRecord {
    enum Column: String, TableColumn {
        case name, role, addedAt = "added_at", addedBy = "added_by"
    }

    init(_ row: Columns<Column>) throws {
        self.init(name: try row.string(.name), role: try row.value(.role, as: Role.self), addedAt: try row.int64(.addedAt), addedBy: try row.string(.addedBy))
    }
}

extension OrderStore {
    /// The schema version a store opened by this iapdesk has (its newest migration).
    public static var schemaVersion: Int { Migrations.all(.sqlite).count }
}
