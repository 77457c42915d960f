import AppStore
import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import TestSupport
import Testing

/// Purchases of every product type go through the simulator over real HTTP, are stored,
/// re-verified through both of Apple's APIs and delivered exactly once (R2, R5, R7).
@Suite("End to end: purchases")
struct PurchaseFlowTests {
    static let products = ["coins_60", "no_ads", "pass_30d", "vip_monthly"]

    @Test("Every product type is delivered through verifyReceipt and through the Server API", arguments: [false, true])
    func everyProductType(serverAPI: Bool) async throws {
        try await SimulatorHarness.run(serverAPI: serverAPI) { h in
            for (index, product) in Self.products.enumerated() {
                let purchase = try await h.buy("o\(index)", account: "acct\(index)", appleId: "p\(index)@icloud", productId: product)
                let outcome = try await h.reverify("o\(index)")
                #expect(outcome.order.state == .delivered, "\(product): \(outcome.order.lastError ?? "")")
                #expect(outcome.order.transactionId == purchase.transactionId)
                #expect(outcome.report.method == (serverAPI ? .serverAPI : .verifyReceipt))
                #expect(outcome.report.environment == .production)
                let allPassed = outcome.checks.allSatisfy { $0.passed }
                #expect(allPassed)
                let detail = try await h.store.orders.detail("o\(index)")
                #expect(detail.grants.count == 1)
                let attempt = try #require(detail.attempts.last)
                #expect(attempt.appleStatus == 0 && attempt.outcome == .valid)
                // The raw answer is kept verbatim for the receipt screen.
                #expect(attempt.body?.contains(serverAPI ? "signedTransactionInfo" : "\"in_app\"") == true)
            }
        }
    }

    @Test("The client named a transaction neither environment knows (4040010 twice): the stored receipt goes to verifyReceipt; the paid order is not rejected")
    func unknownTransactionFallsBack() async throws {
        try await SimulatorHarness.run { h in
            try await h.buy("o1", account: "a1", appleId: "p@icloud", productId: "coins_60", claim: false)
            // The game's client sent an id from somewhere else; the receipt itself is good.
            try await h.submit("o1", appleId: "p@icloud", claim: "2000000999999999")
            let outcome = try await h.reverify("o1")
            #expect(outcome.report.method == .verifyReceipt)
            #expect(outcome.report.appleStatus == 0)
            #expect(outcome.order.state != .rejected, "\(outcome.order.lastError ?? "")")
            // Apple's receipt does not hold the named id: an operator asks the game, the order waits.
            #expect(outcome.order.state == .verifyRetry && outcome.order.needsOperator)
            let attempts = try await h.store.orders.detail("o1").attempts
            #expect(attempts.last?.method == .verifyReceipt && attempts.last?.appleStatus == 0)
        }
    }

    @Test("Without a claimed transaction the Server API is not used, and R6 picks the transaction from the receipt")
    func noClaimUsesVerifyReceipt() async throws {
        try await SimulatorHarness.run { h in
            try await h.buy("o1", account: "a1", appleId: "p@icloud", productId: "coins_60", claim: false)
            let outcome = try await h.reverify("o1")
            #expect(outcome.report.method == .verifyReceipt)
            #expect(outcome.order.state == .delivered)
        }
    }

    @Test("R2: a sandbox receipt sent to production lands in sandbox, flagged, through either API", arguments: [false, true])
    func sandboxAtProduction(serverAPI: Bool) async throws {
        try await SimulatorHarness.run(serverAPI: serverAPI) { h in
            try await h.buy("review", account: "app-review", appleId: "reviewer@icloud", productId: "coins_300", sandbox: true)
            let outcome = try await h.reverify("review")
            #expect(outcome.report.environment == .sandbox)
            #expect(outcome.flaggedSandbox)
            #expect(outcome.order.state == .delivered)
            #expect(outcome.order.environment == .sandbox)
        }
    }

    @Test("R7: the same purchase submitted for a second order is a replay, flagged, and delivers once")
    func replay() async throws {
        try await SimulatorHarness.run { h in
            // An older client that sends no account token: only the claim keys catch the replay.
            let purchase = try await h.buy("o1", account: "a1", appleId: "p@icloud", productId: "coins_60", token: false)
            #expect(try await h.reverify("o1").order.state == .delivered)
            try await h.store.orders.place(orderId: "o2", accountId: "a2", productId: "coins_60", at: .now() - 120_000)
            try await h.submit("o2", appleId: "p@icloud", claim: purchase.transactionId)
            let second = try await h.reverify("o2")
            #expect(second.order.state == .rejected)
            #expect(second.order.replayFlag)
            #expect(try await h.store.orders.detail("o2").grants.isEmpty)
        }
    }

    @Test("R5: with an account token, a purchase made for one order can't pay for another")
    func tokenNamesTheOrder() async throws {
        try await SimulatorHarness.run { h in
            let purchase = try await h.buy("o1", account: "a1", appleId: "p@icloud", productId: "coins_60")
            try await h.store.orders.place(orderId: "o2", accountId: "a1", productId: "coins_60", at: .now() - 120_000)
            try await h.submit("o2", appleId: "p@icloud", claim: purchase.transactionId)
            let outcome = try await h.reverify("o2")
            #expect(outcome.order.state == .rejected)
            #expect(outcome.order.lastError?.contains("token o1 belongs to another order") == true)
        }
    }

    @Test("R5: a receipt of another app (re-signed build) is rejected on its bundle id")
    func otherBundle() async throws {
        try await SimulatorHarness.run(serverAPI: false) { h in
            let other = try AppStoreSimulator(bundleId: "com.pirate.resigned")
            let purchase = await other.ledger.purchase(appleId: "p@icloud", productId: "coins_60", kind: .consumable)
            // Signed by the trusted simulator's own authority would be needed to pass 21003; the
            // pirate's receipt is signed by another root, so Apple (the simulator) refuses it.
            try await h.store.orders.place(orderId: "o1", accountId: "a1", productId: "coins_60", at: .now() - 60_000)
            try await h.store.orders.submit(
                orderId: "o1", receiptData: try await other.ledger.receipt(appleId: "p@icloud"), claimedTransactionId: purchase.transactionId)
            let outcome = try await h.reverify("o1")
            #expect(outcome.report.appleStatus == 21003)
            #expect(outcome.order.state == .rejected)
        }
    }

    @Test("A garbage receipt is 21002: kept and retried, never lost")
    func garbageReceipt() async throws {
        try await SimulatorHarness.run(serverAPI: false) { h in
            try await h.store.orders.place(orderId: "o1", accountId: "a1", productId: "coins_60", at: .now() - 60_000)
            try await h.store.orders.submit(orderId: "o1", receiptData: "not a receipt \u{1B}[2J", claimedTransactionId: nil)
            let outcome = try await h.reverify("o1")
            #expect(outcome.report.appleStatus == 21002)
            #expect(outcome.order.state == .verifyRetry)
            #expect(try await h.store.orders.detail("o1").submissions.first?.receiptData == "not a receipt \u{1B}[2J")
        }
    }
}
