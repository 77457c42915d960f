import Foundation
import OrderDomain
import SQLKit
import TestSupport
import Testing

@testable import OrderStore

/// Two transactions that lock the same two rows in opposite orders: PostgreSQL ends the
/// deadlock by failing one, and the store reads that failure as a race worth running again.
@Suite("PostgreSQL transaction races", .needsPostgres)
struct TransactionRaceTests {
    @Test("A deadlock PostgreSQL breaks is told apart as a race (SQLSTATE 40P01); a constraint refusal is not")
    func deadlockIsARace() async throws {
        let location = StoreLocation.postgres(url: try await PostgresServer.freshDatabaseURL())
        let first = try await OrderStore.open(location, settings: .test)
        let second = try await OrderStore.open(location, settings: .test)
        try await first.read { sql in
            try await sql.raw("CREATE TABLE race (id INT PRIMARY KEY, n INT NOT NULL)").run()
            try await sql.raw("INSERT INTO race VALUES (1, 0), (2, 0)").run()
        }
        /// Locks `a`, waits for the other to lock its row, then asks for `b`.
        func cross(_ store: OrderStore, _ a: Int, _ b: Int) async -> (any Error)? {
            do {
                try await store.read { sql in
                    try await sql.raw("BEGIN").run()
                    do {
                        try await sql.raw("UPDATE race SET n = n + 1 WHERE id = \(bind: a)").run()
                        try await sql.raw("SELECT pg_sleep(0.5)").run()
                        try await sql.raw("UPDATE race SET n = n + 1 WHERE id = \(bind: b)").run()
                        try await sql.raw("COMMIT").run()
                    } catch {
                        try? await sql.raw("ROLLBACK").run()
                        throw error
                    }
                }
                return nil
            } catch {
                return error
            }
        }
        async let one = cross(first, 1, 2)
        async let two = cross(second, 2, 1)
        let failures = [await one, await two].compactMap { $0 }
        #expect(failures.count == 1, "one of the two is ended: \(failures.map { DatabaseErrorText.describe($0) ?? "\($0)" })")
        #expect(failures.allSatisfy(DatabaseErrorText.isTransactionRace), "\(failures.map { DatabaseErrorText.describe($0) ?? "\($0)" })")

        let duplicate = try await first.read { sql in
            do {
                try await sql.raw("INSERT INTO race VALUES (1, 0)").run()
                return nil as (any Error)?
            } catch {
                return error
            }
        }
        let refusal = try #require(duplicate)
        #expect(!DatabaseErrorText.isTransactionRace(refusal))
        await first.close()
        await second.close()
    }
}
