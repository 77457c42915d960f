import AppStore
import Foundation
import OrderDomain
import OrderStore
import TestSupport
import Testing

extension AppleSide {
    /// The studio's refund policy answering Apple on its own, run by serve's worker
    /// against the simulator: only with the game's report and the player's consent, at once
    /// for the product types set to `answer`, otherwise only near Apple's deadline. Both backends.
    @Suite("serve: the refund policy")
    struct RefundPolicyTests {
        static let policy = RefundPolicy(modes: [.consumable: .answer, .autoRenewable: .operator], answerBefore: .hours(2), preference: .decline)

        @Test(
            "A consumable the game reported with consent is answered by the worker within a round, once, audited as the policy; without consent it stays with support; a subscription in operator mode waits until 2 h before the deadline",
            arguments: Backend.all)
        func answersOnItsOwn(backend: Backend) async throws {
            try await IntakeTests.withServe(
                backend, serverAPI: true,
                worker: {
                    $0.refundPolicy = Self.policy
                    $0.refundPolicyInterval = 200
                }
            ) { serve in
                let sim = serve.simulator
                await serve.wireNotifications()
                let consented = try await NotificationTests.delivered(
                    "p-1", product: "coins_980", kind: .consumable, account: "acct-p1", appleId: "p1@icloud", in: serve)
                let silent = try await NotificationTests.delivered(
                    "p-2", product: "coins_980", kind: .consumable, account: "acct-p2", appleId: "p2@icloud", in: serve)
                let vip = try await NotificationTests.delivered(
                    "p-3", product: "vip_monthly", kind: .autoRenewable, account: "acct-p3", appleId: "p3@icloud", in: serve)
                for (order, body) in [
                    ("p-1", #"{"consumed_percent": 40, "customer_consented": true}"#), ("p-2", #"{"consumed_percent": 90}"#),
                    ("p-3", #"{"consumed_percent": 10, "customer_consented": true}"#),
                ] {
                    #expect(try await serve.call(.POST, "/v1/orders/\(order)/consumption", json: body).status == 201)
                }
                for purchase in [consented, silent, vip] { _ = try await RefundRequestTests.requested(purchase.transactionId, in: serve) }

                let answered = try await eventually(within: 30) { await sim.consumptionAnswer(transactionId: consented.transactionId) != nil }
                #expect(answered, "the worker answered the consented consumable")
                let atApple = try #require(await sim.consumptionAnswer(transactionId: consented.transactionId))
                #expect(atApple["consumptionPercentage"] == "40000" && atApple["deliveryStatus"] == "DELIVERED" && atApple["refundPreference"] == "DECLINE")
                // Apple has the answer a moment before the worker records Apple's acceptance.
                _ = try await eventually(within: 10) {
                    try await serve.store.refunds.requests(open: false).first { $0.transactionId == consented.transactionId }?.sent != nil
                }
                let requests = try await serve.store.refunds.requests(open: false)
                let first = try #require(requests.first { $0.transactionId == consented.transactionId })
                #expect(first.answers.count == 1 && first.sent?.operatorName == RefundPolicy.actor.name)
                #expect(try await serve.store.audit.entries().contains { $0.action == .refundRequestAnswered && $0.actor == "refund-policy" })

                // Any of three more rounds of the policy would have answered the other two.
                #expect(try await IntakeTests.waitForRuns(of: .refundPolicy, in: serve), "the refund policy ran again meanwhile")
                #expect(await sim.consumptionAnswer(transactionId: silent.transactionId) == nil, "no consent: support answers")
                #expect(await sim.consumptionAnswer(transactionId: vip.transactionId) == nil, "operator mode: not yet")
                let types = try await serve.store.catalogue.types()
                let waiting = try #require(requests.first { $0.transactionId == vip.transactionId })
                let deadline = try #require(waiting.deadline)
                #expect(
                    Self.policy.decide(waiting, productType: types["vip_monthly"], now: deadline - .hours(3))
                        == .leave(.supportAnswers(answerBefore: .hours(2))))
                guard case .send(let late, _) = Self.policy.decide(waiting, productType: types["vip_monthly"], now: deadline - .hours(1)) else {
                    Issue.record("2 h before the deadline the policy answers")
                    return
                }
                #expect(late.consumptionPercentage == 10_000 && late.customerConsented)
                let silentRequest = try #require(requests.first { $0.transactionId == silent.transactionId })
                #expect(
                    Self.policy.decide(silentRequest, productType: .consumable, now: deadline - .hours(1))
                        == .leave(.noConsentedReport))
            }
        }
    }
}
