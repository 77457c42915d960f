import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import Presentation
import SyntheticData
import TestSupport
import Testing

extension AppleSide {
    /// What Apple added in 2025–26, end to end: the simulator signs it, `serve` verifies and
    /// keeps it, the desk's words show it (the console and the command line print the same
    /// presentation), and the game's events carry it.
    @Suite("Apple's 2026: commitment plans, offer codes, win-back, external purchase tokens")
    struct Apple2026Tests {
        static func words(_ sections: [DetailSection]?) -> [String] {
            (sections ?? []).flatMap(\.lines).map { [$0.label, $0.text].compactMap { $0 }.joined(separator: "  ") }
        }

        @Test(
            "A plan billed monthly with a 12-month commitment: its payment and commitment are kept and shown; cancelled on payment 3 it still renews, monthly, until payment 12, whose period does not renew; the game's events carry the plan",
            arguments: Backend.all)
        func commitment(backend: Backend) async throws {
            try await IntakeTests.withServe(backend, serverAPI: true) { serve in
                let sim = serve.simulator
                await serve.wireNotifications()
                #expect(try await serve.call(.POST, "/v1/orders", json: #"{"order_id":"c-1","account_id":"acct-c","product_id":"vip_monthly"}"#).status == 201)
                let bought = try await sim.purchaseAndNotify(appleId: "c@icloud", productId: "vip_monthly", appAccountToken: "c-1", commitment: 12)
                let signed = try await sim.signedTransaction(bought)
                #expect(try await serve.call(.POST, "/v1/orders/c-1/receipts", json: #"{"signed_transaction":"\#(signed)"}"#).status == 202)
                #expect(try await IntakeTests.waitFor("delivered", order: "c-1", in: serve)["state"] as? String == "delivered")
                let otid = bought.originalTransactionId
                _ = try await sim.renewAndNotify(originalTransactionId: otid)
                let third = try await sim.renewAndNotify(originalTransactionId: otid)
                try await sim.setAutoRenewAndNotify(originalTransactionId: otid, false)
                _ = try await EveryNotificationTypeTests.settled(4, in: serve)

                var detail = try await serve.store.subscriptions.detail(otid)
                var subscription = try #require(detail.subscription)
                #expect(subscription.autoRenew, "payments go on during the commitment")
                #expect(subscription.renewal.commitment?.renews == false && subscription.renewal.billingPlan == "MONTHLY")
                let end = try #require(third.commitmentEnd)
                var page = Self.words(SubscriptionPresentation.sections(detail, storeIsProduction: true))
                #expect(page.contains("plan  monthly, payment 3 of 12, committed until \(TimeText.full(Millis(end.timeIntervalSince1970 * 1000)))"), "\(page)")
                #expect(
                    page.contains { $0.hasPrefix("commitment  cancelled during the commitment: payments go on, renewal stops after payment 12") }, "\(page)")

                // Payments 4 to 12; the twelfth period is the last.
                for _ in 4...12 { _ = try await sim.renewAndNotify(originalTransactionId: otid) }
                await #expect(throws: SimulatorError.self) { try await sim.renewAndNotify(originalTransactionId: otid) }
                _ = try await EveryNotificationTypeTests.settled(13, in: serve)
                detail = try await serve.store.subscriptions.detail(otid)
                subscription = try #require(detail.subscription)
                #expect(!subscription.autoRenew && subscription.status == .active, "paid to the end of the commitment, no renewal after it")
                page = Self.words(SubscriptionPresentation.sections(detail, storeIsProduction: true))
                #expect(page.contains { $0.hasPrefix("plan  monthly, payment 12 of 12") }, "\(page)")

                let delivered = try #require(try await serve.store.outbox.events(orderId: "c-1").first { $0.event.type == .delivered })
                let body = try GameEventBody(stored: delivered.event.payload, eventId: delivered.event.eventId)
                #expect(body.terms?.billingPlan == "MONTHLY" && body.terms?.commitmentPayments == 12, "\(delivered.event.payload)")
            }
        }

        @Test(
            "An offer code on a one-time product shows on its order and reaches the game; a subscriber who left is shown the win-back offers Apple says they may redeem",
            arguments: Backend.all)
        func offers(backend: Backend) async throws {
            try await IntakeTests.withServe(backend, serverAPI: true) { serve in
                let sim = serve.simulator
                await serve.wireNotifications()
                #expect(try await serve.call(.POST, "/v1/orders", json: #"{"order_id":"o-1","account_id":"acct-o","product_id":"no_ads"}"#).status == 201)
                let coded = try await sim.purchaseAndNotify(appleId: "o@icloud", productId: "no_ads", appAccountToken: "o-1", offer: (3, "SPRING26"))
                let signed = try await sim.signedTransaction(coded)
                #expect(try await serve.call(.POST, "/v1/orders/o-1/receipts", json: #"{"signed_transaction":"\#(signed)"}"#).status == 202)
                #expect(try await IntakeTests.waitFor("delivered", order: "o-1", in: serve)["state"] as? String == "delivered")
                let order = Self.words(OrderDetailPresentation.sections(try await serve.store.orders.detail("o-1"), storeIsProduction: true))
                #expect(order.contains("offer  offer code SPRING26"), "\(order)")
                let delivered = try #require(try await serve.store.outbox.events(orderId: "o-1").first)
                let body = try GameEventBody(stored: delivered.event.payload, eventId: delivered.event.eventId)
                #expect(body.terms?.offerType == 3 && body.terms?.offerId == "SPRING26", "\(delivered.event.payload)")

                let vip = try await NotificationTests.delivered(
                    "w-1", product: "vip_monthly", kind: .autoRenewable, account: "acct-w", appleId: "w@icloud", in: serve)
                try await sim.expireAndNotify(originalTransactionId: vip.originalTransactionId, reason: .voluntary, at: Date().addingTimeInterval(1))
                _ = try await EveryNotificationTypeTests.settled(2, in: serve)  // ONE_TIME_CHARGE, EXPIRED
                let detail = try await serve.store.subscriptions.detail(vip.originalTransactionId)
                #expect(detail.subscription?.status == .expired && detail.subscription?.renewal.winBackOffers == ["vip_welcome_back"])
                let page = Self.words(SubscriptionPresentation.sections(detail, storeIsProduction: true))
                #expect(page.contains("win-back  may redeem vip_welcome_back to come back"), "\(page)")
            }
        }

        @Test(
            "EXTERNAL_PURCHASE_TOKEN notifications name their app inside the token: verified, kept once and listed with what they mean, a sandbox token at the sandbox URL; one for another app is refused",
            arguments: Backend.all)
        func externalPurchaseTokens(backend: Backend) async throws {
            try await IntakeTests.withServe(backend) { serve in
                let sim = serve.simulator
                await serve.wireNotifications()
                let production = try await sim.externalPurchaseTokenAndNotify(subtype: "CREATED", tokenType: "ACQUISITION")
                let sandbox = try await sim.externalPurchaseTokenAndNotify(subtype: "ACTIVE_TOKEN_REMINDER", tokenType: "SERVICES", sandbox: true)
                let sent = await sim.notifications.entries
                // serve never refused one (a TIMED_OUT is the loaded machine's 5 s, not a refusal).
                #expect(
                    sent.allSatisfy { $0.attempts.allSatisfy { ["SUCCESS", "TIMED_OUT"].contains($0.result) } && !$0.attempts.isEmpty },
                    "serve answered 2xx: Apple does not retry")
                let stored = try await EveryNotificationTypeTests.settled(2, in: serve)
                #expect(stored.count == 2 && stored.allSatisfy { $0.rejection == nil && $0.outcome == .recorded }, "\(stored.map(\.said))")
                let created = try #require(stored.first { $0.facts.externalPurchaseToken?.externalPurchaseId == production })
                #expect(created.facts.app == DemoCatalogue.bundleId && created.endpoint == .production)
                #expect(created.said?.contains("external purchase \(production) (ACQUISITION)") == true, "\(created.said ?? "")")
                #expect(created.said?.contains("paid outside the App Store") == true)
                #expect(stored.contains { $0.facts.externalPurchaseToken?.externalPurchaseId == sandbox && $0.endpoint == .sandbox })
                let listing = QueueListings.notifications()
                let listed = try await serve.store.notifications.list().map { listing.cells($0).map(\.text).joined(separator: "  ") }
                #expect(listed.contains { $0.contains("EXTERNAL_PURCHASE_TOKEN/CREATED") }, "\(listed)")

                let stranger = try AppStoreSimulator(bundleId: "com.other.game", authority: sim.authority)
                _ = try await stranger.externalPurchaseTokenAndNotify()
                let foreign = try #require(await stranger.notifications.entries.first?.notification)
                let refused = try await NotificationTests.post(foreign, in: serve)
                #expect(refused.status == 400 && (refused.body["detail"] as? String)?.contains("com.other.game") == true, "\(refused.body)")
            }
        }
    }
}
