import AppStore
import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import Receipts
import TestSupport
import Testing

/// The Server API client against the simulator over HTTP: paging, order look-up, refund
/// history, and the checks that keep a forged or misdirected answer from being acted on.
@Suite("App Store Server API client")
struct ServerAPIClientTests {
    @Test("Transaction history pages through revision tokens until hasMore is false")
    func historyPages() async throws {
        try await SimulatorHarness.run { h in
            var ids: [String] = []
            for _ in 0..<45 { ids.append(await h.ledger.purchase(appleId: "whale@icloud", productId: "coins_60", kind: .consumable).transactionId) }
            let client = try #require(h.verifier.serverAPI)
            guard case .success(let first) = await client.transactionHistory(ids[0], in: .production) else { Issue.record("no first page"); return }
            #expect(first.value.transactions.count == 20 && first.value.page.hasMore == true)
            let all = await client.allPages { await client.transactionHistory(ids[0], in: .production, revision: $0) }
            #expect(try all.get().compactMap(\.transactionId) == ids)
            guard case .failure(let bad) = await client.transactionHistory(ids[0], in: .production, revision: "forged") else {
                Issue.record("a forged revision was accepted"); return
            }
            #expect(bad.errorCode == 4_000_005 && bad.httpStatus == 400)
        }
    }

    @Test("Look Up Order ID finds the invoice's purchases; an unknown id says Apple knows no such order")
    func lookUpOrder() async throws {
        try await SimulatorHarness.run { h in
            let purchase = await h.ledger.purchase(appleId: "p@icloud", productId: "no_ads", kind: .nonConsumable)
            let client = try #require(h.verifier.serverAPI)
            let found = try await client.lookUpOrder(purchase.appleOrderId, in: .production).get()
            #expect(found.value.map(\.transactionId) == [purchase.transactionId])
            guard case .failure(let missing) = await client.lookUpOrder("MKNOSUCH01", in: .production) else { Issue.record("found a ghost"); return }
            #expect(missing.description.contains("no such order"))
        }
    }

    @Test("Refund history lists refunded transactions only; production does not see sandbox")
    func refundHistory() async throws {
        try await SimulatorHarness.run { h in
            let kept = await h.ledger.purchase(appleId: "p@icloud", productId: "coins_60", kind: .consumable)
            let refunded = await h.ledger.purchase(appleId: "p@icloud", productId: "coins_300", kind: .consumable)
            try await h.ledger.refund(transactionId: refunded.transactionId, reason: 1)
            let client = try #require(h.verifier.serverAPI)
            let page = try await client.refundHistory(kept.transactionId, in: .production).get()
            #expect(page.value.transactions.map(\.transactionId) == [refunded.transactionId])
            #expect(page.value.transactions.first?.revocationReason == 1)
            guard case .failure(let other) = await client.transactionInfo(kept.transactionId, in: .sandbox) else {
                Issue.record("sandbox saw production"); return
            }
            #expect(other.errorCode == 4_040_010)
        }
    }

    @Test("Answers signed under a root iapdesk does not trust are never acted on: the order waits")
    func untrustedSignature() async throws {
        try await SimulatorHarness.run { h in
            try await h.buy("o1", account: "a1", appleId: "p@icloud", productId: "no_ads")
            let stranger = try CertificateAuthority(name: "Someone Else")
            let verifier = AppleVerifier(settings: try SimulatorHarness.settings(for: h.server, trust: TrustRoots(apple: [stranger.root])))
            let outcome = try await h.store.apple.reverify(orderId: "o1", using: verifier)
            await verifier.shutdown()
            #expect(outcome.order.state == .verifyRetry)
            #expect(outcome.report.transportError?.contains("did not verify") == true)
            #expect(try await h.store.orders.detail("o1").grants.isEmpty)
        }
    }

    @Test("A wrong API key is refused with 401 and tells the operator to fix the configuration")
    func wrongKey() async throws {
        try await SimulatorHarness.run { h in
            try await h.buy("o1", account: "a1", appleId: "p@icloud", productId: "no_ads")
            let verifier = AppleVerifier(settings: try SimulatorHarness.settings(for: h.server, key: SimulatorAPIKey()))
            let outcome = try await h.store.apple.reverify(orderId: "o1", using: verifier)
            await verifier.shutdown()
            #expect(outcome.report.httpStatus == 401)
            #expect(outcome.order.state == .verifyRetry)
            #expect(outcome.order.lastError?.contains("credentials") == true)
        }
    }

    @Test("A wrong shared secret is 21004: the order waits flagged for an operator, is delivered once the secret is fixed; no secret is stored")
    func sharedSecret() async throws {
        try await SimulatorHarness.run(serverAPI: false) { h in
            try await h.buy("o1", account: "a1", appleId: "p@icloud", productId: "vip_monthly", claim: false)
            var settings = try SimulatorHarness.settings(for: h.server, serverAPI: false)
            settings.verifyReceipt.sharedSecret = Secret(value: "wrong-secret", origin: "test")
            let verifier = AppleVerifier(settings: settings)
            let outcome = try await h.store.apple.reverify(orderId: "o1", using: verifier)
            await verifier.shutdown()
            #expect(outcome.report.appleStatus == 21004)
            #expect(outcome.order.state == .verifyRetry && outcome.order.needsOperator)
            #expect(try await h.store.reports.operatorAlerts().first?.reason == .sharedSecretRejected)
            let good = try await h.reverify("o1")
            #expect(good.order.state == .delivered)
            #expect(try await h.store.reports.operatorAlerts().isEmpty)
            let attempts = try await h.store.orders.detail("o1").attempts
            #expect(attempts.allSatisfy { $0.body?.contains(SimulatorHarness.secret) != true && $0.body?.contains("wrong-secret") != true })
            #expect("\(settings.verifyReceipt)".contains("wrong-secret") == false)
        }
    }
}
