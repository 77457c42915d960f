import OrderDomain
import TestSupport
import Testing

@testable import OrderStore

/// One statement text for PostgreSQL's prepared statements and SQLKit's binds on both backends.
@Suite("Numbered placeholders")
struct NumberedStatementTests {
    @Test("$n is bound wherever it occurs, $10 is not $1 followed by 0, a lone $ stays text", arguments: Backend.all)
    func binds(backend: Backend) async throws {
        try await withStore(backend) { store in
            let statement = NumberedStatement(
                "SELECT $1 AS a, $1 || '-' || $2 AS b, $10 AS c, '$' AS d, 'é' || $2 || 'ü' AS f")
            let values: [any Encodable & Sendable] = ["x", "y", "", "", "", "", "", "", "", "tenth"]
            let row = try #require(try await store.db.sql.row(statement.bound(values)))
            #expect(try row.string("a") == "x" && row.string("b") == "x-y" && row.string("c") == "tenth")
            #expect(try row.string("d") == "$" && row.string("f") == "éyü")
        }
    }
}
