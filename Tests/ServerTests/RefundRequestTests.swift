import AppStore
import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import Presentation
import TestSupport
import Testing

extension AppleSide {
    /// Apple's refund requests answered from the desk: a CONSUMPTION_REQUEST posted to
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
                if let request = try await serve.store.refunds.requests(open: false).first(where: { $0.transactionId == transactionId }) { return request }
                try await Task.sleep(for: .milliseconds(30))
            }
            throw StoreError.notFound(kind: .refundRequest, id: transactionId)
        }

        @Test(
            "A refund request lists with its order, delivery and deadline; no consent or no role sends nothing; an answer reaches Apple once and is audited; a second is refused; past the deadline nothing is sent",
            arguments: Backend.all)
        func answered(backend: Backend) async throws {
            try await IntakeTests.withServe(backend, serverAPI: true) { serve in
                let sim = serve.simulator
                await serve.wireNotifications()
                let coins = try await NotificationTests.delivered("r-1", product: "coins_980", kind: .consumable, account: "acct-r", in: serve)
                let request = try await Self.requested(coins.transactionId, in: serve)
                #expect(request.order?.orderId == "r-1" && request.deliveredAt != nil)
                let signed = try #require(request.notification.facts.signedDate)
                #expect(request.deadline == signed + .hours(12), "Apple's 12 hours")
                #expect(try await serve.store.refunds.requests().map(\.notification.id) == [request.notification.id], "open")
                let id = request.notification.id
                let send = try Self.send(serve)

                var withoutConsent = Self.spent
                withoutConsent.customerConsented = false
                await #expect(throws: AppleActionError.consentRequired) {
                    try await serve.store.refunds.answer(notificationId: id, answer: withoutConsent, by: Self.lin, reason: "ticket 12", send: send)
                }
                await #expect(throws: StoreError.forbidden(action: .answerRefundRequests, role: .viewer)) {
                    try await serve.store.refunds.answer(
                        notificationId: id, answer: Self.spent, by: Operator(name: "vic", role: .viewer), reason: "ticket 12", send: send)
                }
                #expect(await sim.consumptionAnswer(transactionId: coins.transactionId) == nil, "nothing reached Apple")
                await #expect(throws: AppleActionError.refundDeadlinePassed(notificationId: id, deadline: signed + .hours(12))) {
                    try await serve.store.refunds.answer(
                        notificationId: id, answer: Self.spent, by: Self.lin, reason: "too late", at: signed + .hours(13), send: send)
                }

                let answer = try await serve.store.refunds.answer(
                    notificationId: id, answer: Self.spent, by: Self.lin, reason: "ticket 12: 80 % of the coins spent", send: send)
                #expect(answer.outcome == .sent && answer.appleError == nil)
                let atApple = try #require(await sim.consumptionAnswer(transactionId: coins.transactionId))
                #expect(atApple["consumptionPercentage"] == "80000" && atApple["deliveryStatus"] == "DELIVERED" && atApple["refundPreference"] == "DECLINE")
                await #expect(throws: AppleActionError.self) {
                    try await serve.store.refunds.answer(notificationId: id, answer: Self.spent, by: Self.lin, reason: "again", send: send)
                }
                #expect(try await serve.store.refunds.requests().isEmpty, "answered: no longer open")
                #expect(try await serve.store.refunds.request(id).sent?.operatorName == "lin")
                let audit = try await serve.store.audit.entries().first { $0.action == .refundRequestAnswered }
                #expect(audit?.reason == "ticket 12: 80 % of the coins spent" && audit?.said.contains("80 % consumed") == true)

                // Apple decides: the request links to its REFUND_DECLINED.
                try await sim.declineRefundAndNotify(transactionId: coins.transactionId)
                let deadline = Date().addingTimeInterval(30)
                var decided = try await serve.store.refunds.request(id)
                while decided.decision == nil, Date() < deadline {
                    try await Task.sleep(for: .milliseconds(30))
                    decided = try await serve.store.refunds.request(id)
                }
                #expect(decided.decision?.refunded == false)
            }
        }

        @Test("Apple's refusal is recorded with Apple's error and frees the request for a corrected answer", arguments: Backend.all)
        func refusedByApple(backend: Backend) async throws {
            try await IntakeTests.withServe(backend, serverAPI: true) { serve in
                await serve.wireNotifications()
                let noAds = try await NotificationTests.delivered("r-2", product: "no_ads", kind: .nonConsumable, account: "acct-r2", in: serve)
                let request = try await Self.requested(noAds.transactionId, in: serve)
                let send = try Self.send(serve)
                let first = try await serve.store.refunds.answer(
                    notificationId: request.notification.id, answer: Self.spent, by: Self.lin, reason: "ticket 13", send: send)
                #expect(first.outcome == .failed)
                #expect(first.appleError?.contains("4000043") == true, "\(first.appleError ?? "")")
                let second = try await serve.store.refunds.answer(
                    notificationId: request.notification.id, answer: Self.spent, by: Self.lin, reason: "ticket 13, again", send: send)
                #expect(second.outcome == .failed, "a failed answer does not block another")
                #expect(try await serve.store.refunds.requests().map(\.notification.id) == [request.notification.id], "still open")
                #expect(try await serve.store.audit.entries().contains { $0.action == .refundRequestRefused })

                // Apple refunds without an answer it took: the request is decided, no longer open.
                try await serve.simulator.refundAndNotify(transactionId: noAds.transactionId)
                let deadline = Date().addingTimeInterval(30)
                while try await !serve.store.refunds.requests().isEmpty, Date() < deadline { try await Task.sleep(for: .milliseconds(30)) }
                let decided = try await serve.store.refunds.request(request.notification.id)
                #expect(decided.decision?.refunded == true && !decided.isOpen(at: .now()))
                #expect(RefundRequestPresentation.status(decided, now: .now()).text.hasPrefix("Apple refunded it"))
                #expect(try await serve.store.reports.counts().openRefundRequests == 0)
                // The list's batched read (the console's, every 2 s) says what the full one says.
                let listed = try #require(try await serve.store.refunds.requests(open: false, evidence: false).first)
                #expect(listed.order?.orderId == "r-2" && listed.answers == decided.answers && listed.decision == decided.decision)
                #expect(listed.deadline == decided.deadline && listed.isOpen(at: .now()) == decided.isOpen(at: .now()))
            }
        }

        @Test(
            "The game reports a purchase's use through serve before Apple asks; the request shows the latest report, the header counts the open request and its deadline; a bad report is refused with the field named and keeps nothing",
            arguments: Backend.all)
        func gameReportsConsumption(backend: Backend) async throws {
            try await IntakeTests.withServe(backend, serverAPI: true) { serve in
                await serve.wireNotifications()
                let coins = try await NotificationTests.delivered("r-3", product: "coins_980", kind: .consumable, account: "acct-r3", in: serve)
                let first = try await serve.call(.POST, "/v1/orders/r-3/consumption", json: #"{"consumed_percent": 20}"#)
                #expect(first.status == 201 && first.body["consumed_percent"] as? Double == 20, "\(first)")
                let latest = try await serve.call(.POST, "/v1/orders/r-3/consumption", json: #"{"consumed_percent": 62.5, "play_time": "1_to_6_hours"}"#)
                #expect(latest.status == 201 && latest.body["play_time"] as? String == "1_to_6_hours", "\(latest)")

                for (body, field) in [
                    (#"{"consumed_percent": 150}"#, "consumed_percent"), (#"{"consumed_percent": 10, "play_time": "forever"}"#, "play_time"),
                    (#"{"play_time": "1_to_6_hours"}"#, "consumed_percent"), ("[1, 2]", "JSON object"),
                ] {
                    let refused = try await serve.call(.POST, "/v1/orders/r-3/consumption", json: body)
                    #expect(refused.status == 400 && (refused.body["detail"] as? String)?.contains(field) == true, "\(body): \(refused)")
                }
                let unknown = try await serve.call(.POST, "/v1/orders/no-such-order/consumption", json: #"{"consumed_percent": 10}"#)
                #expect(unknown.status == 404, "\(unknown)")
                #expect(try await serve.call(.POST, "/v1/orders/r-3/consumption", json: #"{"consumed_percent": 10}"#, token: nil).status == 401)

                #expect(try await serve.store.reports.counts().openRefundRequests == 0)
                let request = try await Self.requested(coins.transactionId, in: serve)
                #expect(request.consumption?.consumptionPercentage == 62_500 && request.consumption?.playTime == .under6Hours)
                #expect(request.consumption?.client == "game-1", "the report names the game server that sent it")
                let counts = try await serve.store.reports.counts(now: try #require(request.deadline) - .hours(2))
                #expect(counts.openRefundRequests == 1 && counts.nextRefundDueIn == .hours(2))
                #expect(try await serve.store.reports.counts(now: try #require(request.deadline) + 1).openRefundRequests == 0, "past Apple's deadline")
                _ = try await serve.store.refunds.answer(
                    notificationId: request.notification.id, answer: Self.spent, by: Self.lin, reason: "ticket 14", send: try Self.send(serve))
                #expect(try await serve.store.reports.counts().openRefundRequests == 0, "answered")
            }
        }

        @Test(
            "A refund request names the other game accounts the same Apple Account bought with and their refunds, by appTransactionId",
            arguments: Backend.all)
        func sameAppleAccount(backend: Backend) async throws {
            try await IntakeTests.withServe(backend, serverAPI: true) { serve in
                await serve.wireNotifications()
                let first = try await NotificationTests.delivered(
                    "s-1", product: "coins_980", kind: .consumable, account: "acct-s1", appleId: "same@icloud", in: serve)
                try await serve.simulator.refundAndNotify(transactionId: first.transactionId)
                _ = try await IntakeTests.waitFor("refunded", order: "s-1", in: serve)
                let second = try await NotificationTests.delivered(
                    "s-2", product: "coins_980", kind: .consumable, account: "acct-s2", appleId: "same@icloud", in: serve)
                _ = try await NotificationTests.delivered(
                    "s-3", product: "coins_980", kind: .consumable, account: "acct-s3", appleId: "other@icloud", in: serve)
                let request = try await Self.requested(second.transactionId, in: serve)
                #expect(request.sameAppleAccount == [SiblingAccount(accountId: "acct-s1", refunds: 1)], "\(request.sameAppleAccount)")
                let line = RefundRequestPresentation.sections(request, now: .now()).flatMap(\.lines).first { $0.label == "Apple Account" }
                #expect(line?.text == "also plays acct-s1 (1 refunded)" && line?.tone == .alert)
            }
        }
    }
}
