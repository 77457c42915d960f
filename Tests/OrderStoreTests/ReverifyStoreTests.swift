import Foundation
import OrderDomain
import TestSupport
import Testing

@testable import OrderStore

/// Re-verification through the `ReceiptVerifier` seam OrderStore declares. The AppStore
/// module implements it over HTTP; here a scripted verifier stands in for Apple
/// so the store's side is tested without a network.
@Suite("Re-verification")
struct ReverifyStoreTests {
    /// Answers with the reports it was given, in order, and records what it was asked.
    actor ScriptedApple: ReceiptVerifier {
        private var answers: [VerificationReport]
        private(set) var asked: [(String, String?)] = []
        init(_ answers: [VerificationReport]) { self.answers = answers }

        func verify(_ evidence: PurchaseEvidence, claimedTransactionId: String?) async -> VerificationReport {
            asked.append(((try? evidence.storedText) ?? "", claimedTransactionId))
            return answers.isEmpty ? outage : answers.removeFirst()
        }
    }

    @Test("A stored receipt is re-sent as it was stored; a dead Apple leaves the order waiting, then a valid answer delivers", arguments: Backend.all)
    func reverify(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await store.paidOrder("o1", account: "a1", claimed: "4242")
            let apple = ScriptedApple([outage, validReport([tx("4242", at: t0 + 100)])])
            let first = try await store.apple.reverify(orderId: "o1", using: apple)
            #expect(first.order.state == .verifyRetry)
            let second = try await store.apple.reverify(orderId: "o1", using: apple, by: alice)
            #expect(second.order.state == .delivered)
            let asked = await apple.asked
            #expect(asked.count == 2 && asked.allSatisfy { $0.0 == "receipt-of-o1" && $0.1 == "4242" })
            let detail = try await store.orders.detail("o1")
            #expect(detail.attempts.map(\.outcome) == [.retryable, .valid])
            #expect(detail.audit.contains { $0.action == .reverify && $0.actor == "alice" })
        }
    }

    /// A slow Apple that answers every order's receipt valid and counts the calls per order.
    actor CountingApple: ReceiptVerifier {
        private(set) var calls: [String: Int] = [:]
        func verify(_ evidence: PurchaseEvidence, claimedTransactionId: String?) async -> VerificationReport {
            let order = String(((try? evidence.storedText) ?? "").dropFirst("receipt-of-".count))
            calls[order, default: 0] += 1
            try? await Task.sleep(for: .milliseconds(15))
            return validReport([tx("tx-\(order)", at: t0 + 100)])
        }
    }

    @Test(
        "Two bulk re-verifications of the same orders at once, from two connections: each order is asked about once, each delivered once",
        arguments: Backend.all)
    func twoBulkRunsAskOnce(backend: Backend) async throws {
        try await withTwoConnections(backend) { first, second in
            let ids = (1...40).map { "bulk-\($0)" }
            for id in ids { _ = try await first.paidOrder(id, account: "a-\(id)") }
            let apple = CountingApple()
            async let one = first.apple.reverifyAll(ids, using: apple, by: alice, concurrency: 8)
            async let two = second.apple.reverifyAll(ids, using: apple, by: alice, concurrency: 8)
            let (a, b) = await (one, two)
            #expect(a.failed.isEmpty && b.failed.isEmpty, "\(a.failed) \(b.failed)")
            #expect(a.delivered + b.delivered == ids.count, "each order delivered by one of the runs")
            #expect(a.elsewhere + b.elsewhere == ids.count, "the other run left it: \(a.elsewhere) + \(b.elsewhere)")
            let calls = await apple.calls
            #expect(calls.count == ids.count && calls.values.allSatisfy { $0 == 1 }, "one call per order: \(calls.filter { $0.value != 1 })")
            for id in ids { #expect(try await first.orders.detail(id).grants.count == 1) }
            #expect(try await first.jobs.job(.verify(orderId: "bulk-1")) == nil, "nothing is owed once delivered")
        }
    }

    @Test(
        "A run that finds the order asked about since it began leaves the jobs as they were: none made up for a delivered order, an owed one still owed",
        arguments: Backend.all)
    func leftAloneLeavesJobsAsTheyWere(backend: Backend) async throws {
        try await withStore(backend) { store in
            let began = Millis.now()
            _ = try await store.paidOrder("done", account: "a1")
            _ = try await store.apple.reverify(orderId: "done", using: CountingApple())
            #expect(try await store.orders.detail("done").order.state == .delivered)
            #expect(try await store.jobs.job(.verify(orderId: "done")) == nil)
            await #expect(throws: StoreError.self) {
                try await store.apple.reverify(orderId: "done", using: CountingApple(), by: alice, unlessAskedSince: began)
            }
            #expect(try await store.jobs.job(.verify(orderId: "done")) == nil, "no verification is owed for a delivered order")

            _ = try await store.paidOrder("owed", account: "a2")
            _ = try await store.apple.reverify(orderId: "owed", using: ScriptedApple([outage]))
            let owed = try #require(try await store.jobs.job(.verify(orderId: "owed")), "Apple's outage leaves a retry owed")
            await #expect(throws: StoreError.self) {
                try await store.apple.reverify(orderId: "owed", using: CountingApple(), by: alice, unlessAskedSince: began)
            }
            let after = try #require(try await store.jobs.job(.verify(orderId: "owed")), "the owed retry is still owed")
            #expect(after.dueAt == owed.dueAt && after.leaseOwner == nil)
        }
    }

    @Test(
        "A bulk run stopped midway (the console's Esc) leaves no claim on the orders it never asked about: another run takes them at once",
        arguments: Backend.all)
    func stoppedRunGivesClaimsBack(backend: Backend) async throws {
        try await withStore(backend) { store in
            let ids = (1...12).map { "stop-\($0)" }
            for id in ids { _ = try await store.paidOrder(id, account: "a-\(id)") }
            let apple = CountingApple()
            let asked = Counter()
            // Four in flight; the second answer stops the run with orders it never asked about.
            let stopped = await store.apple.reverifyAll(
                ids, using: apple, by: alice, concurrency: 4,
                shouldContinue: { asked.value < 2 }, progress: { state in if state.done > 0 { asked.increment() } })
            #expect(stopped.done < ids.count && stopped.failed.isEmpty, "\(stopped.summary)")
            for id in ids {
                if let job = try await store.jobs.job(.verify(orderId: id)) { #expect(job.leaseOwner == nil, "\(id) still claimed by \(job.leaseOwner ?? "")") }
            }
            let rest = await store.apple.reverifyAll(ids, using: apple, by: alice, concurrency: 4)
            #expect(rest.elsewhere == 0 && rest.failed.isEmpty, "\(rest.summary)")
            #expect(await apple.calls.count == ids.count, "every order asked about by one run or the other")
        }
    }

    @Test("An order without a stored receipt can't be re-verified, and says so", arguments: Backend.all)
    func nothingToVerify(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await store.orders.place(orderId: "o1", accountId: "a1", productId: "coins_60", at: t0)
            await #expect(throws: StoreError.noReceipt(orderId: "o1")) {
                try await store.apple.reverify(orderId: "o1", using: ScriptedApple([]))
            }
        }
    }
}

/// A count shared with `@Sendable` closures.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
