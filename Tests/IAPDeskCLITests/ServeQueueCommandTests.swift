import Foundation
import OrderDomain
import OrderStore
import SyntheticData
import TestSupport
import Testing

@testable import IAPDeskApp
@testable import IAPDeskCLI

/// `iapdesk jobs` and `iapdesk notifications` as an operator runs them on a store file.
@Suite("jobs and notifications commands")
struct ServeQueueCommandTests {
    @Test("A dead job is requeued by an admin with a reason (audited under their name); a live one is refused; a rejected notification is never replayed")
    func requeueAndReplay() async throws {
        let db = Scratch.url("iapdesk-jobs-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) } }
        let store = try await OrderStore.open(.sqlite(path: db), settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        try await SimulatorFiles.makeAdminIfNew(store)
        for product in DemoCatalogue.products { try await store.catalogue.upsert(product) }
        _ = try await store.orders.place(orderId: "j-1", accountId: "a-1", productId: "coins_60")
        try await store.orders.submit(orderId: "j-1", receiptData: "AAAA")
        var now = Millis.now()
        for _ in 1...JobQueue.maxAttempts {
            let job = try #require(try await store.jobs.claim(owner: "w", limit: 1, lease: .seconds(60), now: now).first)
            try await store.jobs.finish(job, owner: "w", result: .failed("Apple said no"), now: now)
            now += .hours(2)
        }
        let dead = try #require(try await store.jobs.list(deadOnly: true).first)
        let rejected = try await store.notifications.receive(
            IncomingNotification(
                endpoint: .production, via: .receiver, raw: "garbage", rejection: .notSignedPayloadBody, facts: NotificationFacts()))
        await store.close()

        try await IAPDesk.run(["jobs", "list", "--dead", "--db", db])
        try await IAPDesk.run(["notifications", "list", "--db", db])
        guard case .rejected(let rejectedId) = rejected else { Issue.record("not rejected: \(rejected)"); return }
        try await IAPDesk.run(["notifications", "show", "\(rejectedId)", "--db", db])
        await #expect(throws: StoreError.self) { try await IAPDesk.run(["notifications", "replay", "\(rejectedId)", "--reason", "try", "--db", db]) }
        await #expect(throws: StoreError.self) { try await IAPDesk.run(["jobs", "requeue", "\(dead.id)", "--db", db, "--reason", " "]) }
        try await IAPDesk.run(["jobs", "requeue", "\(dead.id)", "--reason", "Apple is back", "--db", db])
        await #expect(throws: StoreError.self, "only dead jobs") { try await IAPDesk.run(["jobs", "requeue", "\(dead.id)", "--reason", "again", "--db", db]) }

        let after = try await OrderStore.open(.sqlite(path: db), settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        let job = try #require(try await after.jobs.job(.verify(orderId: "j-1")))
        #expect(job.deadAt == nil && job.attempts == 0)
        let audit = try await after.orders.detail("j-1").audit
        #expect(audit.contains { $0.action == .jobRequeue && $0.actor == OperatorIdentity.current && $0.reason == "Apple is back" })
        await after.close()
    }

    @Test("iapdesk events: list the unconfirmed, show one with every try, resend it (audited), refuse a resend without a reason")
    func events() async throws {
        let db = Scratch.url("iapdesk-events-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) } }
        let store = try await OrderStore.open(.sqlite(path: db), settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        try await SimulatorFiles.makeAdminIfNew(store)
        for product in DemoCatalogue.products { try await store.catalogue.upsert(product) }
        _ = try await store.orders.place(orderId: "e-1", accountId: "a-1", productId: "coins_60")
        let submission = try await store.orders.submit(orderId: "e-1", receiptData: "AAAA")
        let purchase = AppleTransaction(transactionId: "tx-e1", originalTransactionId: "tx-e1", productId: "coins_60", purchaseDate: .now() - 1_000)
        _ = try await store.apple.apply(
            orderId: "e-1", submissionId: submission,
            report: VerificationReport(
                environment: .production, appleStatus: 0, content: AppleReceiptContent(bundleId: DemoCatalogue.bundleId, inApp: [purchase])))
        let event = try #require(try await store.outbox.events(orderId: "e-1").first?.event)
        try await store.outbox.recordAttempt(
            event, GameEventAttempt(at: .now(), via: .push, httpStatus: nil, answer: "connection refused", latencyMs: 1),
            giveUpAt: .now() - 1)
        await store.close()

        try await IAPDesk.run(["events", "list", "--db", db])
        try await IAPDesk.run(["events", "show", event.eventId, "--db", db])
        await #expect(throws: StoreError.self) { try await IAPDesk.run(["events", "show", "evt_none", "--db", db]) }
        await #expect(throws: StoreError.self) { try await IAPDesk.run(["events", "resend", event.eventId, "--reason", " ", "--db", db]) }
        try await IAPDesk.run(["events", "resend", "--all-dead", "--reason", "game is back", "--db", db])

        let after = try await OrderStore.open(.sqlite(path: db), settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        let detail = try await after.outbox.event(event.eventId)
        #expect(detail.event.deadAt == nil && detail.attempts.count == 1)
        #expect(detail.fields.contains { $0.name == "try 1" && $0.value.contains("no answer") && $0.value.contains("connection refused") })
        #expect(try await after.orders.detail("e-1").audit.contains { $0.action == .eventResend && $0.reason == "game is back" })
        await after.close()
    }
}
