import AppStore
import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import TestSupport
import Testing

/// Refunds (R9) and ownership of a subscription shared by two game accounts (R8), driven
/// by what Apple (the simulator) reports on re-verification.
@Suite("End to end: refunds and ownership")
struct SubscriptionFlowTests {
    @Test("R9: Apple's refund revokes the grant on the next re-verification", arguments: [false, true])
    func refund(serverAPI: Bool) async throws {
        try await SimulatorHarness.run(serverAPI: serverAPI) { h in
            let purchase = try await h.buy("o1", account: "a1", appleId: "p@icloud", productId: "no_ads")
            #expect(try await h.reverify("o1").order.state == .delivered)
            try await h.ledger.refund(transactionId: purchase.transactionId, reason: 1)
            let outcome = try await h.reverify("o1")
            #expect(outcome.order.state == .refunded)
            let grant = try #require(try await h.store.orders.detail("o1").grants.first)
            #expect(grant.revokedAt != nil && grant.revokedBy == "apple")
        }
    }

    @Test("R9: a consumable's refund never shows in a receipt; the Server API's revocation and a REFUND notification do")
    func consumableRefund() async throws {
        try await SimulatorHarness.run(serverAPI: false) { h in
            let purchase = try await h.buy("o1", account: "a1", appleId: "p@icloud", productId: "coins_300", claim: false)
            #expect(try await h.reverify("o1").order.state == .delivered)
            try await h.ledger.refund(transactionId: purchase.transactionId, reason: 1)
            #expect(try await h.reverify("o1").order.state == .delivered)
            let refunded = try await h.store.apple.recordRefund(transactionId: purchase.transactionId, cancelledAt: Millis.now())
            #expect(refunded?.state == .refunded)
        }
        try await SimulatorHarness.run(serverAPI: true) { h in
            let purchase = try await h.buy("o1", account: "a1", appleId: "p@icloud", productId: "coins_300")
            #expect(try await h.reverify("o1").order.state == .delivered)
            try await h.ledger.refund(transactionId: purchase.transactionId, reason: 1)
            #expect(try await h.reverify("o1").order.state == .refunded)
        }
    }

    @Test("R9: a Family Sharing revoke takes the delivery back too")
    func revoke() async throws {
        try await SimulatorHarness.run { h in
            let purchase = try await h.buy("o1", account: "a1", appleId: "family@icloud", productId: "no_ads")
            #expect(try await h.reverify("o1").order.state == .delivered)
            try await h.ledger.revoke(transactionId: purchase.transactionId)
            #expect(try await h.reverify("o1").order.state == .refunded)
        }
    }

    private static let day: TimeInterval = 86_400
    private static func millis(_ date: Date) -> Millis { Millis((date.timeIntervalSince1970 * 1000).rounded()) }
    static let lifeCases: [(Backend, Bool)] = Backend.all.flatMap { backend in [(backend, false), (backend, true)] }

    @Test(
        "Seed 003 case 1, in life's order: Apple renews A's subscription, then B on the same phone places an order and submits it → A keeps it, B disputed",
        arguments: lifeCases)
    func seed003RenewalFirst(backend: Backend, serverAPI: Bool) async throws {
        try await SimulatorHarness.run(serverAPI: serverAPI, backend: backend) { h in
            let now = Date()
            let first = try await h.buy("a-1", account: "A", appleId: "shared@icloud", productId: "vip_monthly", at: now.addingTimeInterval(-35 * Self.day))
            #expect(try await h.reverify("a-1").order.state == .delivered)
            // Apple renews at the period's end (5 days ago); A never opens the game.
            let renewal = try await h.ledger.renew(originalTransactionId: first.originalTransactionId)
            // A day after the renewal B logs in on the same phone; the game finds the renewal and submits it for B.
            try await h.store.orders.place(orderId: "b-1", accountId: "B", productId: "vip_monthly", at: Self.millis(now.addingTimeInterval(-4 * Self.day)))
            try await h.submit("b-1", appleId: "shared@icloud", claim: serverAPI ? renewal.transactionId : nil)
            let outcome = try await h.reverify("b-1")
            #expect(outcome.checks.allSatisfy { $0.passed }, "\(outcome.checks)")
            #expect(outcome.ownership == .ownerKeeps(owner: "A"))
            #expect(outcome.order.state == .disputed)
            let subscription = try #require(try await h.store.subscriptions.detail(first.originalTransactionId).subscription)
            #expect(subscription.ownerAccount == "A")
            #expect(subscription.expiresAt == renewal.expiresDate.map(Self.millis))
            #expect(subscription.factsSource == (serverAPI ? .serverAPI : .verifyReceipt))
        }
    }

    @Test(
        "Seed 003 case 2, in life's order: A turns auto-renew off, the month lapses, B subscribes on the same Apple ID; it renews; A logs in and submits it → B keeps it, A disputed",
        arguments: lifeCases)
    func seed003OwnerStopped(backend: Backend, serverAPI: Bool) async throws {
        try await SimulatorHarness.run(serverAPI: serverAPI, backend: backend) { h in
            let now = Date()
            let monthly = try await h.buy("a-1", account: "A", appleId: "shared@icloud", productId: "vip_monthly", at: now.addingTimeInterval(-130 * Self.day))
            #expect(try await h.reverify("a-1").order.state == .delivered)
            await h.ledger.setAutoRenew(originalTransactionId: monthly.originalTransactionId, false)
            #expect(try await h.reverify("a-1").order.state == .delivered)
            #expect(try await h.store.subscriptions.detail(monthly.originalTransactionId).subscription?.autoRenew == false)

            // The demo catalogue sells one subscription level; the seed's quarterly behaves the same.
            let quarterly = try await h.buy(
                "b-1", account: "B", appleId: "shared@icloud", productId: "vip_monthly",
                claim: serverAPI, at: now.addingTimeInterval(-100 * Self.day))
            #expect(try await h.reverify("b-1").order.state == .delivered)
            // Apple renews B's subscription seventy days ago; A logs in five days ago and the game submits the renewal for A.
            let renewal = try await h.ledger.renew(originalTransactionId: quarterly.originalTransactionId, period: 90 * Self.day)
            try await h.store.orders.place(orderId: "a-2", accountId: "A", productId: "vip_monthly", at: Self.millis(now.addingTimeInterval(-5 * Self.day)))
            try await h.submit("a-2", appleId: "shared@icloud", claim: serverAPI ? renewal.transactionId : nil)
            let outcome = try await h.reverify("a-2")
            #expect(outcome.ownership == .ownerKeeps(owner: "B"))
            #expect(outcome.order.state == .disputed)
            #expect(try await h.store.subscriptions.detail(quarterly.originalTransactionId).subscription?.ownerAccount == "B")
        }
    }

    @Test(
        "The receipt screen reads back what the rules saw through the Server API: the renewal, Apple's renewal intent and every earlier period of the subscription"
    )
    func storedServerAPIAnswer() async throws {
        try await SimulatorHarness.run(serverAPI: true) { h in
            let first = try await h.buy("s-1", account: "A", appleId: "a@icloud", productId: "vip_monthly", at: Date().addingTimeInterval(-65 * Self.day))
            let second = try await h.ledger.renew(originalTransactionId: first.originalTransactionId)
            let third = try await h.ledger.renew(originalTransactionId: first.originalTransactionId)
            let report = await h.verifier.verify(.signedTransaction(""), claimedTransactionId: third.transactionId)
            #expect(report.appleStatus == 0 && report.method == .serverAPI, "\(report.body.prefix(200))")
            let periods = Set((report.content?.latestReceiptInfo ?? []).map(\.transactionId))
            #expect(periods == [first.transactionId, second.transactionId, third.transactionId], "the rules saw every period")
            let stored = try #require(await StoredAnswers(trust: h.simulator.trustRoots).content(ofStoredAnswer: report.body))
            #expect(stored == report.content, "the screen shows what the rules saw")
            #expect(stored.pendingRenewals.count == 1)
        }
    }

    @Test("R8: a renewal submitted by a second account on the same Apple ID is decided by the rule", arguments: [false, true])
    func sharedAppleId(serverAPI: Bool) async throws {
        try await SimulatorHarness.run(serverAPI: serverAPI) { h in
            // Account A subscribes on the shared Apple ID and owns the subscription.
            let first = try await h.buy("a-1", account: "A", appleId: "shared@icloud", productId: "vip_monthly")
            #expect(try await h.reverify("a-1").order.state == .delivered)

            // The subscription renews; account B, logged in on the same device, submits it.
            let renewal = try await h.ledger.renew(originalTransactionId: first.originalTransactionId)
            try await h.store.orders.place(
                orderId: "b-1", accountId: "B", productId: "vip_monthly", at: Millis(renewal.purchaseDate.timeIntervalSince1970 * 1000) - 60_000)
            try await h.submit("b-1", appleId: "shared@icloud", claim: renewal.transactionId)
            let disputed = try await h.reverify("b-1")
            // A's subscription still auto-renews: the renewal is A's, B's order is disputed.
            #expect(disputed.order.state == .disputed)
            #expect(disputed.ownership?.explanation.contains("A") == true)
            #expect(try await h.store.subscriptions.detail(first.originalTransactionId).subscription?.ownerAccount == "A")

            // A turns auto-renew off; re-verifying A's order tells the store, and the next
            // renewal B submits moves ownership to B.
            await h.ledger.setAutoRenew(originalTransactionId: first.originalTransactionId, false)
            #expect(try await h.reverify("a-1").order.state == .delivered)
            #expect(try await h.store.subscriptions.detail(first.originalTransactionId).subscription?.autoRenew == false)
            let next = try await h.ledger.renew(originalTransactionId: first.originalTransactionId)
            try await h.store.orders.place(
                orderId: "b-2", accountId: "B", productId: "vip_monthly", at: Millis(next.purchaseDate.timeIntervalSince1970 * 1000) - 60_000)
            try await h.submit("b-2", appleId: "shared@icloud", claim: next.transactionId)
            let moved = try await h.reverify("b-2")
            #expect(moved.order.state == .delivered, "\(moved.order.lastError ?? "")")
            let detail = try await h.store.subscriptions.detail(first.originalTransactionId)
            #expect(detail.subscription?.ownerAccount == "B")
            #expect(detail.ownership.last?.toAccount == "B")
        }
    }
}
