import Foundation
import SQLKit
import TestSupport
import Testing

@testable import OrderStore

/// What the store wrote as JSON it reads back as it was, or says which row it cannot read:
/// never an empty default in its place (an event sent as `{}`, a verdict shown as never kept).
@Suite("Stored records")
struct StoredRecordTests {
    @Test("An event a share that JSON cannot hold would make is refused, not stored as {}")
    func eventThatCannotBeWritten() throws {
        var effect = GameEventBody.Effect(op: .take, accountId: "p-1", productId: "coins_60", quantity: 1)
        effect.share = .nan
        let body = GameEventBody(id: "evt_nan", type: .partiallyRefunded, createdAt: t0, accountId: "p-1", effect: effect, summary: "take back")
        #expect(throws: EncodingError.self) { try body.json() }
    }

    @Test(
        "A verification attempt whose stored verdict no longer reads makes the order's page an error naming the attempt; one stored before verdicts were kept reads as none",
        arguments: Backend.all)
    func unreadableVerdict(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await store.deliveredOrder("sr-1")
            let attempt = try #require(try await store.orders.detail("sr-1").attempts.first)
            #expect(attempt.verdict != nil)
            try await store.read { sql in try await sql.raw("UPDATE verification_attempts SET verdict = NULL WHERE id = \(bind: attempt.id)").run() }
            #expect(try await store.orders.detail("sr-1").attempts.first?.verdict == nil, "kept before verdicts were: none")
            try await store.read { sql in try await sql.raw("UPDATE verification_attempts SET verdict = '{\"outcome\":' WHERE id = \(bind: attempt.id)").run() }
            await #expect {
                _ = try await store.orders.detail("sr-1")
            } throws: { error in
                guard case StoreError.corrupt(let why) = error else { return false }
                return why.contains("verification attempt \(attempt.id)")
            }
        }
    }
}
