import Foundation
import OrderDomain
import OrderStore
import TestSupport
import Testing

/// The DocC article `GettingStarted.md` (Sources/OrderStore/OrderStore.docc) shows these
/// steps; this test runs them as written, so the article cannot drift from the API.
@Suite("Documentation")
struct GettingStartedTests {
    @Test("The getting-started article's code runs as written: placed, kept, retried, granted once, audited")
    func gettingStarted() async throws {
        let path = Scratch.url("getting-started-\(UUID().uuidString).sqlite").path
        let base64Receipt = "MIIT…"  // any text: this walk never asks Apple

        let store = try await OrderStore.open(
            .sqlite(path: path),
            settings: StoreSettings(bundleId: "com.studio.game"))
        try await store.catalogue.upsert(
            Product(productId: "coins_60", type: .consumable, displayName: "60 coins", priceMinor: 99, currency: "USD"))

        try await store.orders.place(orderId: "ord_1001", accountId: "player_42", productId: "coins_60")
        let submission = try await store.orders.submit(orderId: "ord_1001", receiptData: base64Receipt)

        let timedOut = VerificationReport(
            environment: nil, appleStatus: nil, httpStatus: nil, isRetryable: true,
            transportError: "timed out after 30 s", latencyMs: 30_000)
        let outcome = try await store.apple.apply(orderId: "ord_1001", submissionId: submission, report: timedOut)
        #expect(outcome.order.state == .verifyRetry)

        let order = try await store.orders.lookup("ord_1001")[0]
        let support = Operator(name: "lin", role: .support)
        try await store.orders.grant(
            orderId: order.orderId, expectedVersion: order.version, by: support,
            reason: "ticket 4711: paid, Apple timed out")
        var refusedBy: String?
        do {
            try await store.orders.grant(orderId: order.orderId, expectedVersion: order.version, by: support, reason: "again")
        } catch StoreError.alreadyDelivered(_, let by, _) {
            refusedBy = by
        }
        #expect(refusedBy == "lin", "the second grant is refused, naming the first")

        if case .broken(let seq, let why) = try await store.audit.verify() {
            Issue.record("audit log broken at \(seq): \(why)")
        }
        #expect(try await store.orders.detail("ord_1001").grants.count == 1)
        await store.close()
    }
}
