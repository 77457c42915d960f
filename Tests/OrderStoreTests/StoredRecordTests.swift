import Foundation
import OrderDomain
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

    /// Each record's columns are declared once (its `Column` enum): the queries select them
    /// and its decoder reads them. A declared column its table lacks would fail only the
    /// query that first selects it; this asks every table at once.
    @Test("Every record's declared columns are columns of its table, on both backends", arguments: Backend.all)
    func declaredColumnsExist(backend: Backend) async throws {
        let tables: [(table: String, columns: String)] = [
            ("orders", Order.Column.list), ("products", Product.Column.list), ("transactions", StoredTransaction.Column.list),
            ("receipt_submissions", Submission.Column.list), ("verification_attempts", VerificationAttempt.Column.list),
            ("grants", Grant.Column.list), ("subscriptions", Subscription.Column.list), ("ownership_events", OwnershipEvent.Column.list),
            ("audit_log", AuditEntry.Column.list), ("account_flags", AccountFlag.Column.list), ("play_purchases", StoredPlayPurchase.Column.list),
            ("jobs", Job.Column.list), ("events", GameEvent.Column.list), ("event_attempts", GameEventAttempt.Column.list),
            ("notifications", NotificationRecord.Column.list), ("subscription_extensions", SubscriptionExtension.Column.list),
            ("mass_extensions", MassExtension.Column.list), ("notes", Note.Column.list), ("refund_answers", RefundAnswer.Column.list),
            ("consumption_reports", ConsumptionReport.Column.list), ("operators", OperatorRecord.Column.list), ("audit_head", AuditHead.Column.list),
        ]
        try await withStore(backend) { store in
            for (table, columns) in tables {
                await #expect(throws: Never.self, "\(table): \(columns)") {
                    try await store.read { sql in try await sql.raw("SELECT \(unsafeRaw: columns) FROM \(unsafeRaw: table) WHERE 1 = 0").run() }
                }
            }
            // And a misspelt one would be caught.
            await #expect(throws: (any Error).self) {
                try await store.read { sql in try await sql.raw("SELECT order_idd FROM orders WHERE 1 = 0").run() }
            }
        }
    }

    @Test(
        "A notification's rejection is kept as the value it was decided as, every kind of it; one kept as words before reads back as those words",
        arguments: Backend.all)
    func rejectionKept(backend: Backend) async throws {
        let rejections: [NotificationRejection] = [
            .notSignedPayloadBody, .notSigned("JWS: 2 parts"), .signatureRefused("x5c chain: not Apple's root"),
            .otherApp("com.other.game", served: ["com.studio.dragon", "com.studio.kitten"]), .otherApp(nil, served: []),
            .wrongEnvironment(signed: "Production", endpoint: .sandbox), .transactionIncomplete, .insideRefused("renewal: bad signature"),
            .notPubSubPush, .noMessageId, .notDeveloperNotification, .otherPackage("com.other.app"), .otherPackage(nil), .malformedPurchaseToken,
        ]
        try await withStore(backend) { store in
            var ids: [Int64] = []
            for rejection in rejections {
                let receipt = try await store.notifications.receive(
                    IncomingNotification(endpoint: .production, via: .receiver, raw: "raw", rejection: rejection, facts: NotificationFacts()), at: t0)
                guard case .rejected(let id) = receipt else { Issue.record("\(rejection): \(receipt)"); return }
                ids.append(id)
            }
            for (id, rejection) in zip(ids, rejections) { #expect(try await store.notifications.record(id: id).rejection == rejection) }
            let first = try #require(ids.first)
            try await store.read { sql in
                try await sql.raw("UPDATE notifications SET rejection = 'the body is not {\"signedPayload\": …}' WHERE id = \(bind: first)").run()
            }
            #expect(try await store.notifications.record(id: first).rejection == .words(#"the body is not {"signedPayload": …}"#))
        }
    }
}
