import AppStore
import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import Receipts
import TestSupport
import Testing

/// iapdesk's client for the actions Apple lets a studio take, against the simulator over
/// HTTP: each does what Apple does, and each refusal comes back with Apple's code and words.
@Suite("App Store Server API client: actions")
struct ServerAPIActionsTests {
    @Test("Consumption information is accepted for a consumable (202, no body) and refused, with Apple's code, for a non-consumable or without consent")
    func consumption() async throws {
        try await SimulatorHarness.run { h in
            let coins = try await h.simulator.purchaseAndNotify(appleId: "p@icloud", productId: "coins_300")
            let noAds = try await h.simulator.purchaseAndNotify(appleId: "p@icloud", productId: "no_ads")
            let client = try #require(h.verifier.serverAPI)
            let spent = ServerAPIClient.ConsumptionInformation(
                customerConsented: true, consumptionPercentage: 80_000, deliveryStatus: .delivered, refundPreference: .decline,
                sampleContentProvided: false)
            _ = try await client.sendConsumption(spent, transactionId: coins.transactionId, in: .production).get()
            let recorded = try #require(await h.simulator.consumptionAnswer(transactionId: coins.transactionId))
            #expect(recorded["consumptionPercentage"] == "80000" && recorded["refundPreference"] == "DECLINE" && recorded["deliveryStatus"] == "DELIVERED")

            guard case .failure(let nonConsumable) = await client.sendConsumption(spent, transactionId: noAds.transactionId, in: .production) else {
                Issue.record("a non-consumable's consumption was accepted"); return
            }
            #expect(nonConsumable.errorCode == 4_000_043 && nonConsumable.httpStatus == 400)
            var unconsented = spent
            unconsented.customerConsented = false
            guard case .failure(let refused) = await client.sendConsumption(unconsented, transactionId: coins.transactionId, in: .production) else {
                Issue.record("sent without the customer's consent"); return
            }
            #expect(refused.errorCode == 4_000_035 && refused.description.contains("consent"), "\(refused)")
            guard case .failure(let elsewhere) = await client.sendConsumption(spent, transactionId: coins.transactionId, in: .sandbox) else {
                Issue.record("a production purchase was found in sandbox"); return
            }
            #expect(elsewhere.errorCode == 4_040_010)
        }
    }

    @Test("A renewal date is extended by the days asked; Apple's limits hold: two a year, none for an expired subscription, at most 90 days")
    func extend() async throws {
        try await SimulatorHarness.run { h in
            let vip = try await h.simulator.purchaseAndNotify(appleId: "v@icloud", productId: "vip_monthly")
            let client = try #require(h.verifier.serverAPI)
            func extend(_ otid: String, days: Int) async -> Result<ServerAPIClient.Answer<ServerAPIClient.Extension>, ServerAPIFailure> {
                await client.extendRenewalDate(
                    originalTransactionId: otid, days: days, reason: .serviceIssueOrOutage, requestIdentifier: UUID().uuidString, in: .production)
            }
            let first = try await extend(vip.originalTransactionId, days: 7).get().value
            let expected = try #require(vip.expiresDate).addingTimeInterval(7 * 86_400)
            #expect(first.success == true && first.effectiveDate.map { abs($0.date.timeIntervalSince(expected)) < 0.01 } == true)
            _ = try await extend(vip.originalTransactionId, days: 1).get()
            guard case .failure(let third) = await extend(vip.originalTransactionId, days: 1) else { Issue.record("a third extension in a year"); return }
            #expect(third.errorCode == 4_030_005 && third.httpStatus == 403)
            guard case .failure(let tooLong) = await extend(vip.originalTransactionId, days: 91) else { Issue.record("91 days accepted"); return }
            #expect(tooLong.errorCode == 4_000_009)

            let lapsed = try await h.simulator.purchaseAndNotify(appleId: "l@icloud", productId: "vip_weekly")
            try await h.simulator.expireAndNotify(originalTransactionId: lapsed.originalTransactionId)
            guard case .failure(let expired) = await extend(lapsed.originalTransactionId, days: 3) else {
                Issue.record("an expired subscription extended"); return
            }
            #expect(expired.errorCode == 4_030_004)
            let state = try await client.subscriptionStatuses(vip.transactionId, in: .production).get().value.first
            #expect(state?.transaction?.expiresDate.map { abs($0.date.timeIntervalSince(expected.addingTimeInterval(86_400))) < 0.01 } == true)
        }
    }

    @Test("Extension for all active subscribers of a product: started with a request id, its status completes with the counts; an unknown request is 4040009")
    func extendForAll() async throws {
        try await SimulatorHarness.run { h in
            for player in ["a@icloud", "b@icloud"] { try await h.simulator.purchaseAndNotify(appleId: player, productId: "vip_weekly") }
            try await h.simulator.purchaseAndNotify(appleId: "c@icloud", productId: "vip_monthly")  // another product: not included
            let client = try #require(h.verifier.serverAPI)
            let id = UUID().uuidString
            let started = try await client.extendForAllSubscribers(
                productId: "vip_weekly", days: 2, reason: .serviceIssueOrOutage, requestIdentifier: id, in: .production
            )
            .get()
            #expect(started.value == id)
            var status = try await client.extendForAllStatus(productId: "vip_weekly", requestIdentifier: id, in: .production).get().value
            for _ in 0..<100 where status.complete != true {
                try await Task.sleep(for: .milliseconds(20))
                status = try await client.extendForAllStatus(productId: "vip_weekly", requestIdentifier: id, in: .production).get().value
            }
            #expect(status.complete == true && status.succeededCount == 2 && status.failedCount == 0)
            guard case .failure(let unknown) = await client.extendForAllStatus(productId: "vip_weekly", requestIdentifier: "nope", in: .production) else {
                Issue.record("a status for a request never made"); return
            }
            #expect(unknown.errorCode == 4_040_009)
            let summaries = await h.simulator.notifications.entries.filter { $0.notification.type == "RENEWAL_EXTENSION" }
            #expect(summaries.map(\.notification.subtype) == ["SUMMARY"])
        }
    }

    @Test("Set App Account Token rebinds a purchase and its later periods; a renewal's id (not the original) is refused with 4000187")
    func appAccountToken() async throws {
        try await SimulatorHarness.run { h in
            let vip = try await h.simulator.purchaseAndNotify(appleId: "t@icloud", productId: "vip_monthly", appAccountToken: UUID().uuidString)
            let renewal = try await h.simulator.renewAndNotify(originalTransactionId: vip.originalTransactionId)
            let client = try #require(h.verifier.serverAPI)
            let newOwner = UUID()
            _ = try await client.setAppAccountToken(newOwner, originalTransactionId: vip.originalTransactionId, in: .production).get()
            let after = try await client.transactionInfo(renewal.transactionId, in: .production).get().value
            #expect(after.appAccountToken == newOwner.uuidString.lowercased())
            guard case .failure(let notOriginal) = await client.setAppAccountToken(newOwner, originalTransactionId: renewal.transactionId, in: .production)
            else { Issue.record("a renewal's id was taken for the original"); return }
            #expect(notOriginal.errorCode == 4_000_187)
        }
    }

    @Test("App Transaction Info: one appTransactionId per Apple Account, the same from any of its transactions, verified against the trust roots")
    func appTransaction() async throws {
        try await SimulatorHarness.run { h in
            let first = try await h.simulator.purchaseAndNotify(appleId: "same@icloud", productId: "coins_60")
            let second = try await h.simulator.purchaseAndNotify(appleId: "same@icloud", productId: "no_ads")
            let other = try await h.simulator.purchaseAndNotify(appleId: "other@icloud", productId: "coins_60")
            let client = try #require(h.verifier.serverAPI)
            let a = try await client.appTransactionInfo(first.transactionId, in: .production).get().value
            let b = try await client.appTransactionInfo(second.transactionId, in: .production).get().value
            let c = try await client.appTransactionInfo(other.transactionId, in: .production).get().value
            #expect(a.appTransactionId != nil && a.appTransactionId == b.appTransactionId && a.appTransactionId != c.appTransactionId)
            #expect(a.bundleId == SimulatorHarness.bundleId && a.appAppleId == AppStoreSimulator.appAppleId)
            let tx = try await client.transactionInfo(first.transactionId, in: .production).get().value
            #expect(tx.appTransactionId == a.appTransactionId, "transactions carry the account's app transaction id")
            guard case .failure(let missing) = await client.appTransactionInfo("999", in: .production) else { Issue.record("a ghost app transaction"); return }
            #expect(missing.errorCode == 4_040_019)
        }
    }

    @Test("Request a Test Notification: Apple posts TEST to the configured URL, and its status reports the payload and each attempt")
    func testNotification() async throws {
        try await SimulatorHarness.run { h in
            await h.simulator.notifications.configure(production: h.server.baseURL + "/no-receiver", sandbox: nil, retryDelays: [])
            let client = try #require(h.verifier.serverAPI)
            let token = try await client.requestTestNotification(in: .production).get().value
            let status = try await client.testNotificationStatus(token, in: .production).get().value
            let payload = try await JWS(compact: status.signedPayload).verified(as: ServerNotification.self, trust: h.simulator.trustRoots, bundleId: nil)
            #expect(payload.notificationType == "TEST")
            #expect(status.attempts.map(\.result) == ["UNSUCCESSFUL_HTTP_RESPONSE_CODE"], "the receiver answered 404")
            guard case .failure(let unknown) = await client.testNotificationStatus("no-such-token", in: .production) else {
                Issue.record("a status for a token never given"); return
            }
            #expect(unknown.errorCode == 4_040_008)
            await h.simulator.notifications.stop()
        }
    }
}
