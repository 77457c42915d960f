import Testing
import TestSupport
@testable import OrderStore

/// Re-verification through the `ReceiptVerifier` seam OrderStore declares. The AppStore
/// module implements it over HTTP (issue 4); here a scripted verifier stands in for Apple
/// so the store's side is tested without a network, as DESIGN.md §1 intends.
@Suite("Re-verification")
struct ReverifyStoreTests {
    /// Answers with the reports it was given, in order, and records what it was asked.
    actor ScriptedApple: ReceiptVerifier {
        private var answers: [VerificationReport]
        private(set) var asked: [(String, String?)] = []
        init(_ answers: [VerificationReport]) { self.answers = answers }

        func verify(receiptData: String, claimedTransactionId: String?) async -> VerificationReport {
            asked.append((receiptData, claimedTransactionId))
            return answers.isEmpty ? outage : answers.removeFirst()
        }
    }

    @Test("A stored receipt is re-sent as it was stored; a dead Apple leaves the order waiting, then a valid answer delivers", arguments: Backend.all)
    func reverify(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await store.paidOrder("o1", account: "a1", claimed: "4242")
            let apple = ScriptedApple([outage, validReport([tx("4242", at: t0 + 100)])])
            let first = try await store.reverify(orderId: "o1", using: apple)
            #expect(first.order.state == .verifyRetry)
            let second = try await store.reverify(orderId: "o1", using: apple, by: alice)
            #expect(second.order.state == .delivered)
            let asked = await apple.asked
            #expect(asked.count == 2 && asked.allSatisfy { $0.0 == "receipt-of-o1" && $0.1 == "4242" })
            let detail = try await store.orderDetail("o1")
            #expect(detail.attempts.map(\.outcome) == [.retryable, .valid])
            #expect(detail.audit.contains { $0.action == "reverify" && $0.actor == "alice" })
        }
    }

    @Test("An order without a stored receipt can't be re-verified, and says so", arguments: Backend.all)
    func nothingToVerify(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await store.placeOrder(orderId: "o1", accountId: "a1", productId: "coins_60", at: t0)
            await #expect(throws: StoreError.invalid("order o1 has no stored receipt to verify")) {
                try await store.reverify(orderId: "o1", using: ScriptedApple([]))
            }
        }
    }
}
