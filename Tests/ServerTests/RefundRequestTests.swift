import AppStore
import AppStoreSimulator
import Foundation
import OrderStore
import TestSupport
import Testing

/// Apple's refund requests answered from the desk (issue 32): a CONSUMPTION_REQUEST posted to
/// `serve` becomes an open request with its evidence and Apple's 12-hour deadline; an
/// operator's answer goes to the simulator's Send Consumption Information exactly once, and
/// what Apple said is recorded and audited. Both backends.
@Suite("serve: refund requests answered")
struct RefundRequestTests {
    typealias Running = IntakeTests.Running
    static let lin = Operator(name: "lin", role: .support)
    static let spent = ConsumptionAnswer(
        customerConsented: true, consumptionPercentage: 80_000, deliveryStatus: .delivered, refundPreference: .decline, sampleContentProvided: false)

    /// Sends through iapdesk's own Server API client, as the CLI does.
    static func send(_ serve: Running) throws -> @Sendable (String, AppleEnvironment, ConsumptionAnswer) async -> String? {
        let client = try #require(serve.verifier.serverAPI)
        return { await client.consumptionRefusal(transactionId: $0, environment: $1, answer: $2) }
    }

    static func requested(_ transactionId: String, in serve: Running) async throws -> RefundRequest {
        try await serve.simulator.requestRefundAndNotify(transactionId: transactionId)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let request = try await serve.store.refundRequests(open: false).first(where: { $0.transactionId == transactionId }) { return request }
            try await Task.sleep(for: .milliseconds(30))
        }
        throw StoreError.notFound(kind: "refund request for transaction", id: transactionId)
    }

    @Test(
        "A refund request lists with its order, delivery and deadline; no consent or no role sends nothing; an answer reaches Apple once and is audited; a second is refused; past the deadline nothing is sent",
        arguments: Backend.all)
    func answered(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, serverAPI: true) { serve in
            let sim = serve.simulator
            await sim.notifications.configure(
                production: serve.baseURL + "/apple/notifications/production", sandbox: serve.baseURL + "/apple/notifications/sandbox")
            let coins = try await NotificationTests.delivered("r-1", product: "coins_980", kind: .consumable, account: "acct-r", in: serve)
            let request = try await Self.requested(coins.transactionId, in: serve)
            #expect(request.order?.orderId == "r-1" && request.deliveredAt != nil)
            let signed = try #require(request.notification.facts.signedDate)
            #expect(request.deadline == signed + .hours(12), "Apple's 12 hours")
            #expect(try await serve.store.refundRequests().map(\.notification.id) == [request.notification.id], "open")
            let id = request.notification.id
            let send = try Self.send(serve)

            var withoutConsent = Self.spent
            withoutConsent.customerConsented = false
            await #expect(throws: StoreError.consentRequired) {
                try await serve.store.answerRefundRequest(notificationId: id, answer: withoutConsent, by: Self.lin, reason: "ticket 12", send: send)
            }
            await #expect(throws: StoreError.forbidden(action: "answer refund requests", role: .viewer)) {
                try await serve.store.answerRefundRequest(
                    notificationId: id, answer: Self.spent, by: Operator(name: "vic", role: .viewer), reason: "ticket 12", send: send)
            }
            #expect(await sim.consumptionAnswer(transactionId: coins.transactionId) == nil, "nothing reached Apple")
            await #expect(throws: StoreError.refundDeadlinePassed(notificationId: id, deadline: signed + .hours(12))) {
                try await serve.store.answerRefundRequest(
                    notificationId: id, answer: Self.spent, by: Self.lin, reason: "too late", at: signed + .hours(13), send: send)
            }

            let answer = try await serve.store.answerRefundRequest(
                notificationId: id, answer: Self.spent, by: Self.lin, reason: "ticket 12: 80 % of the coins spent", send: send)
            #expect(answer.outcome == .sent && answer.appleError == nil)
            let atApple = try #require(await sim.consumptionAnswer(transactionId: coins.transactionId))
            #expect(atApple["consumptionPercentage"] == "80000" && atApple["deliveryStatus"] == "DELIVERED" && atApple["refundPreference"] == "DECLINE")
            await #expect(throws: StoreError.self) {
                try await serve.store.answerRefundRequest(notificationId: id, answer: Self.spent, by: Self.lin, reason: "again", send: send)
            }
            #expect(try await serve.store.refundRequests().isEmpty, "answered: no longer open")
            #expect(try await serve.store.refundRequest(id).sent?.operatorName == "lin")
            let audit = try await serve.store.auditLog().first { $0.action == "refund_request.answered" }
            #expect(audit?.reason == "ticket 12: 80 % of the coins spent" && audit?.detail.contains("80 % consumed") == true)
        }
    }

    @Test("Apple's refusal is recorded with Apple's error and frees the request for a corrected answer", arguments: Backend.all)
    func refusedByApple(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, serverAPI: true) { serve in
            let sim = serve.simulator
            await sim.notifications.configure(
                production: serve.baseURL + "/apple/notifications/production", sandbox: serve.baseURL + "/apple/notifications/sandbox")
            let noAds = try await NotificationTests.delivered("r-2", product: "no_ads", kind: .nonConsumable, account: "acct-r2", in: serve)
            let request = try await Self.requested(noAds.transactionId, in: serve)
            let send = try Self.send(serve)
            let first = try await serve.store.answerRefundRequest(
                notificationId: request.notification.id, answer: Self.spent, by: Self.lin, reason: "ticket 13", send: send)
            #expect(first.outcome == .failed)
            #expect(first.appleError?.contains("4000043") == true, "\(first.appleError ?? "")")
            let second = try await serve.store.answerRefundRequest(
                notificationId: request.notification.id, answer: Self.spent, by: Self.lin, reason: "ticket 13, again", send: send)
            #expect(second.outcome == .failed, "a failed answer does not block another")
            #expect(try await serve.store.refundRequests().map(\.notification.id) == [request.notification.id], "still open")
            #expect(try await serve.store.auditLog().contains { $0.action == "refund_request.refused" })
        }
    }
}
