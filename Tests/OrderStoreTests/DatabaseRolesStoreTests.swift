import Foundation
import OrderDomain
import SQLKit
import TestSupport
import Testing

@testable import OrderStore

/// On PostgreSQL the database enforces the roles too. A viewer's login cannot
/// promote itself in `operators`; a support login cannot touch audit entries or
/// operators; iapdesk acts with the lower of the table's role and the login's group.
@Suite("PostgreSQL roles enforced by the database", .needsPostgres)
struct DatabaseRolesStoreTests {
    /// `body` gets a store opened as `login` on the same database.
    private func asLogin(_ store: OrderStore, _ login: String, _ body: (OrderStore) async throws -> Void) async throws {
        guard case .postgres(let url) = store.location, let at = url.range(of: "postgres@") else { Issue.record("not a postgres://postgres@ URL"); return }
        try await withConnection(to: .postgres(url: url.replacingCharacters(in: at, with: "\(login)@")), body)
    }

    /// A statement run straight on the database, as someone with that login and psql would.
    private func refused(_ store: OrderStore, _ statement: String) async -> String {
        do {
            try await store.db.sql.raw(SQLQueryString(statement)).run()
            return "ran"
        } catch {
            return DatabaseErrorText.describe(error) ?? "\(error)"
        }
    }

    @Test("Viewer, support and admin logins: each does what its role may, through iapdesk or straight SQL, and no more")
    func rolesHold() async throws {
        do {
            try await rolesHoldSteps()
        } catch {
            Issue.record("\(DatabaseErrorText.describe(error) ?? "\(error)")")
        }
    }

    private func rolesHoldSteps() async throws {
        try await withStore(.postgres) { store in
            #expect(store.databaseRoleCap == nil)  // the owner (here a superuser) is not capped
            try await store.operators.add(name: "root", role: .admin, by: root)
            _ = try await store.paidOrder("o1", account: "a1")
            let statements = try await store.setUpDatabaseRoles()
            #expect(statements.contains("GRANT INSERT, UPDATE ON operators, apps TO iapdesk_admin"), "\(statements)")
            let suffix = UUID().uuidString.prefix(6).lowercased()
            let (vic, sue, ada) = ("vic_\(suffix)", "sue_\(suffix)", "ada_\(suffix)")
            // vic's row says admin (someone edited it, or it is stale); the database says viewer.
            for (login, tableRole, databaseRole) in [(vic, Role.admin, Role.viewer), (sue, .support, .support), (ada, .admin, .admin)] {
                try await store.operators.add(name: login, role: tableRole, by: root)
                _ = try await store.grantDatabaseLogin(login, role: databaseRole)
            }

            try await asLogin(store, vic) { viewerLogin in
                #expect(viewerLogin.databaseRoleCap == .viewer)
                let acting = try await viewerLogin.operators.actor(forUser: "root")  // the OS user is not who the database let in
                #expect(acting == Operator(name: vic, role: .viewer))
                #expect(try await viewerLogin.orders.find("o1")?.state == .receiptReceived)
                let order = try #require(try await viewerLogin.orders.find("o1"))
                await #expect(throws: StoreError.self) {
                    try await viewerLogin.orders.grant(orderId: "o1", expectedVersion: order.version, by: acting, reason: "t")
                }
                let promote = await refused(viewerLogin, "UPDATE operators SET role = 'admin' WHERE name = 'root'")
                #expect(promote.contains("permission denied for table operators") && promote.contains("42501"), "\(promote)")
                #expect(
                    await refused(viewerLogin, "INSERT INTO grants (order_id, account_id, kind, operator, granted_at) VALUES ('o1', 'a1', 'manual', 'x', 1)")
                        .contains("permission denied"))
            }
            try await asLogin(store, sue) { supportLogin in
                #expect(supportLogin.databaseRoleCap == .support)
                let acting = try await supportLogin.operators.actor(forUser: "root")
                #expect(acting == Operator(name: sue, role: .support))
                let order = try #require(try await supportLogin.orders.find("o1"))
                let granted = try await supportLogin.orders.grant(
                    orderId: "o1", expectedVersion: order.version, by: acting, reason: "ticket 9: paid, Apple timed out")
                #expect(granted.state == .delivered)
                await #expect(throws: StoreError.forbidden(action: .addOperators, role: .support)) {
                    try await supportLogin.operators.add(name: "mallory", role: .admin, by: acting)
                }
                for statement in [
                    "DELETE FROM audit_log WHERE seq = 1", "UPDATE audit_log SET reason = 'x' WHERE seq = 1",
                    "INSERT INTO operators VALUES ('mallory', 'admin', 1, 'mallory')", "UPDATE operators SET role = 'admin'",
                    "DELETE FROM grants", "TRUNCATE audit_log",
                ] {
                    let said = await refused(supportLogin, statement)
                    #expect(said.contains("permission denied"), "\(statement): \(said)")
                }
            }
            try await asLogin(store, ada) { adminLogin in
                #expect(adminLogin.databaseRoleCap == .admin)
                try await adminLogin.operators.add(name: "zoe", role: .viewer, by: try await adminLogin.operators.actor(forUser: "root"))
                #expect(try await adminLogin.operators.role(of: "zoe") == .viewer)
            }
            #expect(try await store.audit.entries(limit: 10).contains { $0.actor == sue && $0.action == .grant })
            #expect(try await store.audit.verify().isIntactForTest)
            #expect(try await store.audit.unauditedDeliveries().isEmpty)
            // Logins are the cluster's, not the test database's.
            for login in [vic, sue, ada] { try await store.db.sql.raw(SQLQueryString("DROP ROLE \(login)")).run() }
        }
    }

    @Test("A login name with control characters is refused before any SQL; quotes are quoted")
    func loginNames() throws {
        #expect(throws: StoreError.self) { try DatabaseRoles.login("evil\u{1b}", role: .viewer, exists: false) }
        #expect(try DatabaseRoles.login(#"o"brien"#, role: .viewer, exists: false).first == #"CREATE ROLE "o""brien" LOGIN"#)
    }
}
