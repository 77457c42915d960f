import AppStoreSimulator
import Foundation
import OrderDomain
import Presentation
import TestSupport
import Testing

@testable import OrderStore

extension AppleSide {
    /// Finish Transaction (App Store Server API 1.20): after a delivery the worker tells Apple
    /// the purchase is finished, once, again after a failure, recorded and shown.
    @Suite("Telling Apple a delivered purchase is finished")
    struct FinishTransactionTests {
        @Test(
            "A delivered purchase is finished at Apple by the worker, once, recorded in the audit log and said on the order page",
            arguments: Backend.all)
        func finishedByTheWorker(backend: Backend) async throws {
            try await IntakeTests.withServe(backend, serverAPI: true) { serve in
                let bought = try await NotificationTests.delivered(
                    "f-1", product: "coins_300", kind: .consumable, account: "acct-f", appleId: "f@icloud", in: serve)
                #expect(try await Self.toldApple(bought.transactionId, in: serve), "the worker told Apple the purchase is finished")
                #expect(await serve.simulator.ledger.purchase(transactionId: bought.transactionId)?.finishedAt != nil, "and Apple has it")
                let detail = try await serve.store.orders.detail("f-1")
                let finishedAt = try #require(detail.transactions.first { $0.transaction.transactionId == bought.transactionId }?.finishedAt)
                let page = OrderDetailPresentation.sections(detail, storeIsProduction: true).flatMap(\.lines).map(\.text)
                #expect(page.contains("Apple told the purchase is finished at \(TimeText.full(finishedAt))"), "\(page)")
                #expect(try await serve.store.audit.entries().filter { $0.action == .appleFinished }.count == 1, "told once and recorded")
                // Once: asked again, the store answers from what it recorded; Apple is not called.
                let again = try await serve.store.apple.finish(transactionId: bought.transactionId) { _, _ in "Apple must not be asked again" }
                #expect(again == .alreadyFinished(at: finishedAt))
            }
        }

        @Test(
            "Apple refusing a finish records nothing and the next try finishes it; a purchase refunded before it was told is not finished",
            arguments: Backend.all)
        func refusedThenRetried(backend: Backend) async throws {
            // This worker leaves the finish to the test: what each try does is seen alone.
            try await IntakeTests.withServe(backend, serverAPI: true, worker: { $0.kinds = JobKind.allCases.filter { $0 != .finishTransaction } }) {
                serve in
                let bought = try await NotificationTests.delivered(
                    "f-2", product: "coins_60", kind: .consumable, account: "acct-f", appleId: "f2@icloud", in: serve)
                #expect(try await serve.store.jobs.job(.finishTransaction(transactionId: bought.transactionId)) != nil, "the delivery owes the finish")
                let refused = try await serve.store.apple.finish(transactionId: bought.transactionId) { _, _ in "HTTP 503" }
                #expect(refused == .failed("HTTP 503"))
                #expect(try await serve.store.orders.detail("f-2").transactions.first?.finishedAt == nil, "a refusal records nothing")
                let client = try #require(serve.verifier.serverAPI)
                let retried = try await serve.store.apple.finish(transactionId: bought.transactionId) {
                    await client.finishRefusal(transactionId: $0, environment: $1)
                }
                guard case .finished = retried else { throw Unexpected(retried) }

                let other = try await NotificationTests.delivered(
                    "f-3", product: "coins_60", kind: .consumable, account: "acct-f", appleId: "f3@icloud", in: serve)
                _ = try await serve.store.apple.recordRefund(transactionId: other.transactionId, cancelledAt: .now())
                let refunded = try await serve.store.apple.finish(transactionId: other.transactionId) { _, _ in "Apple must not be asked" }
                #expect(refunded == .notDelivered)
            }
        }

        /// Waits until the store recorded that Apple took the purchase's finish.
        static func toldApple(_ transactionId: String, in serve: IntakeTests.Running) async throws -> Bool {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                // On a pooled read connection: the pool's first connection may be inside the
                // worker's open write, where the finish is seen before it commits.
                let stored = try await serve.store.read { sql in
                    try await sql.raw("SELECT finished_at FROM transactions WHERE transaction_id = \(bind: transactionId)").first()
                }
                if try stored?.decode(column: "finished_at", as: Int64?.self) != nil { return true }
                try await Task.sleep(for: .milliseconds(50))
            }
            return false
        }

        struct Unexpected: Error, CustomStringConvertible {
            let description: String
            init(_ value: Any) { description = "unexpected: \(value)" }
        }
    }
}
