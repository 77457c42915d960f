import OrderDomain
import SQLKit
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

    @Test("An integer (a limit) is written into the text, a missing one is NULL: SQLite plans such a statement once", arguments: Backend.all)
    func integersInTheText(backend: Backend) async throws {
        try await withStore(backend) { store in
            let statement = NumberedStatement("SELECT n FROM (SELECT 1 AS n UNION ALL SELECT 2 UNION ALL SELECT 3) AS t ORDER BY n LIMIT $1")
            let limited: [Int64?] = [2]
            var serializer = SQLSerializer(database: store.db.sql)
            statement.bound(limited).serialize(to: &serializer)
            #expect(serializer.sql.hasSuffix("LIMIT 2") && serializer.binds.isEmpty, "\(serializer.sql)")
            #expect(try await store.db.sql.rows(statement.bound(limited)).map { try $0.int("n") } == [1, 2])
            #expect(try await store.db.sql.rows(statement.bound([5])).count == 3)
            let missing: [Int64?] = [nil]
            let nothing = try await store.db.sql.row(NumberedStatement("SELECT $1 AS n").bound(missing))
            #expect(try nothing?.optionalInt64("n") == nil)
        }
    }
}
