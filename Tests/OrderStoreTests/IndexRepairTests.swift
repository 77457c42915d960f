import OrderDomain
import TestSupport
import Testing

@testable import OrderStore

/// A store an older iapdesk's interrupted seed left without some of its
/// indexes opens, says what it found, and has them back.
@Suite("Index repair on open")
struct IndexRepairTests {
    @Test("Indexes dropped behind the store's back are rebuilt on the next open, which says so; a healthy store reports nothing", arguments: Backend.all)
    func rebuildsMissingIndexes(backend: Backend) async throws {
        let location = try await backend.freshLocation()
        defer { Backend.cleanUp(location) }
        let healthy = try await OrderStore.open(location, settings: .test)
        #expect(healthy.repairs.isEmpty)
        let all = try await healthy.indexNames()
        for name in ["orders_by_account", "orders_stuck", "jobs_due"] {
            try await healthy.read { sql in try await sql.raw("DROP INDEX \(ident: name)").run() }
        }
        #expect(try await healthy.indexNames().count == all.count - 3)
        await healthy.close()

        let reopened = try await OrderStore.open(location, settings: .test)
        #expect(try await reopened.indexNames() == all)
        guard case .indexesRebuilt(let rebuilt)? = reopened.repairs.first, reopened.repairs.count == 1 else {
            Issue.record("one repair, the indexes rebuilt: \(reopened.repairs)")
            return
        }
        #expect(Set(rebuilt) == ["orders_by_account", "orders_stuck", "jobs_due"], "\(rebuilt)")
        await reopened.close()
        let again = try await OrderStore.open(location, settings: .test)
        #expect(again.repairs.isEmpty)
        await again.close()
    }
}

/// PostgreSQL's refusals read as the server's own message, not PostgresNIO's generic text.
@Suite("Database error text")
struct DatabaseErrorTextTests {
    @Test("A PostgreSQL error names the server's message and SQLSTATE", .needsPostgres)
    func postgresErrorIsReadable() async throws {
        try await withStore(.postgres) { store in
            do {
                try await store.read { sql in try await sql.raw("SELECT * FROM no_such_table").run() }
                Issue.record("a query on a missing table succeeded")
            } catch {
                #expect("\(error)".contains("Generic description"), "PostgresNIO's own text hides the cause")
                let text = try #require(DatabaseErrorText.describe(error))
                #expect(text == #"PostgreSQL: relation "no_such_table" does not exist (SQLSTATE 42P01)"#, "\(text)")
            }
        }
    }
}
