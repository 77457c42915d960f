import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import Server
import TestSupport
import Testing

/// Seed 003: the server polls Apple about subscriptions about to expire, so a renewal
/// reaches the store even when Apple's notification never came.
@Suite("serve: polling subscriptions near expiry")
struct ExpiryPollingTests {
    @Test(
        "A renewal Apple never notified: the worker polls the subscription as its period ends and the entitlement runs on; one far from expiry is not polled",
        arguments: Backend.all)
    func renewalLearnedByPolling(backend: Backend) async throws {
        try await IntakeTests.withServe(
            backend,
            worker: { settings in
                settings.expirySweepInterval = 100
                settings.expiryPolling.recheckAfter = 200
            }
        ) { serve in
            let ledger = serve.simulator.ledger
            // One subscription ends in two hours, the other in thirty days.
            let soon = await ledger.purchase(
                appleId: "soon@icloud", productId: "vip_monthly", kind: .autoRenewable,
                period: 2 * 3_600, appAccountToken: "g-soon")
            let later = await ledger.purchase(appleId: "later@icloud", productId: "vip_monthly", kind: .autoRenewable, appAccountToken: "g-later")
            for (order, appleId) in [("g-soon", "soon@icloud"), ("g-later", "later@icloud")] {
                #expect(
                    try await serve.call(.POST, "/v1/orders", json: #"{"order_id":"\#(order)","account_id":"acct-\#(order)","product_id":"vip_monthly"}"#)
                        .status == 201)
                let receipt = try await ledger.receipt(appleId: appleId)
                #expect(try await serve.call(.POST, "/v1/orders/\(order)/receipts", json: #"{"receipt_data":"\#(receipt)"}"#).status == 202)
                #expect(try await IntakeTests.waitFor("delivered", order: order, in: serve)["state"] as? String == "delivered")
            }
            let firstEnd = millis(soon.expiresDate)
            #expect(same(try await expiry(of: soon.originalTransactionId, in: serve), firstEnd))

            // Apple renews; the DID_RENEW notification is lost. Only polling can tell.
            let renewal = try await ledger.renew(originalTransactionId: soon.originalTransactionId)
            let renewedEnd = millis(renewal.expiresDate)
            let deadline = ContinuousClock.now + .seconds(30)
            while try await !same(expiry(of: soon.originalTransactionId, in: serve), renewedEnd), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(same(try await expiry(of: soon.originalTransactionId, in: serve), renewedEnd), "the renewal was learned by polling")
            let entitlements = try await serve.call(.GET, "/v1/accounts/acct-g-soon/entitlements")
            let owned = try #require((entitlements.body["subscriptions"] as? [[String: Any]])?.first)
            #expect(same((owned["expires_at"] as? NSNumber)?.int64Value, renewedEnd) && owned["status"] as? String == "active", "\(owned)")

            // The game is told: the subscription runs until the renewal's end.
            let told = try await serve.store.outbox.events(orderId: "g-soon").map(\.event).filter { $0.type == .subscriptionRenewed }
            let end = try #require(try await expiry(of: soon.originalTransactionId, in: serve))
            #expect(told.count == 1 && told.first?.payload.contains("\"until\":\(end)") == true, "\(told.map(\.payload))")

            // Thirty days out now: no more polls of it, and none ever of the other.
            let polled = try await serve.store.orders.detail("g-soon").attempts.count
            #expect(polled >= 2, "the purchase, then at least the poll that found the renewal")
            // Any of three more sweeps would have owed a check of either subscription.
            #expect(try await IntakeTests.waitForRuns(of: .expirySweep, in: serve), "the expiry sweep ran again meanwhile")
            for otid in [soon.originalTransactionId, later.originalTransactionId] {
                #expect(try await serve.store.jobs.job(.subscriptionCheck(originalTransactionId: otid)) == nil, "no check owed of \(otid)")
            }
            #expect(try await serve.store.orders.detail("g-soon").attempts.count == polled, "renewed: out of the polling window")
            #expect(try await serve.store.orders.detail("g-later").attempts.count == 1, "far from expiry: never polled")
            #expect(later.originalTransactionId != soon.originalTransactionId)
        }
    }

    /// A receipt carries milliseconds; the simulator's dates have finer parts.
    private func millis(_ date: Date?) -> Millis { Millis(((date?.timeIntervalSince1970 ?? 0) * 1000).rounded(.down)) }
    private func same(_ stored: Millis?, _ expected: Millis) -> Bool { stored.map { abs($0 - expected) <= 1 } ?? false }

    private func expiry(of otid: String, in serve: IntakeTests.Running) async throws -> Millis? {
        try await serve.store.subscriptions.detail(otid).subscription?.expiresAt
    }
}
