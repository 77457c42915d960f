import AppStore
import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import Presentation
import Server
import SyntheticData
import TestSupport
import Testing

/// App Store Server Notifications V2 as Apple posts them: signed by the simulator's chain,
/// over real HTTP on loopback to `serve`, applied by its worker through the rules.
@Suite("serve: Apple's notifications")
struct NotificationTests {
    typealias Running = IntakeTests.Running

    /// A purchase delivered the way a game server gets it delivered: order, receipt, worker.
    static func delivered(
        _ orderId: String, product: String, kind: SimulatedPurchase.Kind, account: String = "acct-n",
        appleId: String = "n@icloud", in serve: Running
    ) async throws -> SimulatedPurchase {
        let placed = try await serve.call(.POST, "/v1/orders", json: #"{"order_id":"\#(orderId)","account_id":"\#(account)","product_id":"\#(product)"}"#)
        #expect(placed.status == 201)
        let purchase = await serve.simulator.ledger.purchase(appleId: appleId, productId: product, kind: kind, appAccountToken: orderId)
        let receipt = try await serve.simulator.ledger.receipt(appleId: appleId)
        #expect(
            try await serve.call(
                .POST, "/v1/orders/\(orderId)/receipts", json: #"{"receipt_data":"\#(receipt)","transaction_id":"\#(purchase.transactionId)"}"#
            ).status == 202)
        #expect(try await IntakeTests.waitFor("delivered", order: orderId, in: serve)["state"] as? String == "delivered")
        return purchase
    }

    /// Posts like Apple: no bearer token, `{"signedPayload": …}` to the environment's URL.
    static func post(_ notification: SimulatedNotification, to endpoint: String? = nil, in serve: Running) async throws -> (status: Int, body: [String: Any]) {
        try await post(body: notification.body, to: endpoint ?? (notification.isSandbox ? "sandbox" : "production"), in: serve)
    }

    static func post(body: String, to endpoint: String, in serve: Running) async throws -> (status: Int, body: [String: Any]) {
        try await serve.call(.POST, "/apple/notifications/\(endpoint)", json: body, token: nil)
    }

    /// The stored notification once the worker has applied it.
    static func applied(_ answer: (status: Int, body: [String: Any]), in serve: Running, seconds: Double = 30) async throws -> NotificationRecord {
        #expect(answer.status == 200, "\(answer.body)")
        let id = try #require(answer.body["id"] as? Int)
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let record = try await serve.store.notifications.record(id: Int64(id))
            if record.outcome != .pending || Date() > deadline { return record }
            try await Task.sleep(for: .milliseconds(30))
        }
    }

    @Test(
        "REFUND of a delivered consumable (the only signal Apple gives for one) refunds the order and revokes its grant; Apple's retry of it changes nothing twice",
        arguments: Backend.all)
    func refundConsumable(backend: Backend) async throws {
        try await IntakeTests.withServe(backend) { serve in
            let purchase = try await Self.delivered("n-1", product: "coins_300", kind: .consumable, in: serve)
            try await serve.simulator.ledger.refund(transactionId: purchase.transactionId, reason: 1)
            let refunded = try #require(await serve.simulator.ledger.purchase(transactionId: purchase.transactionId))
            let refund = try await serve.simulator.notification("REFUND", about: refunded)
            let record = try await Self.applied(try await Self.post(refund, in: serve), in: serve)
            #expect(record.outcome == .applied && record.said?.contains("order n-1 refunded") == true, "\(record.said ?? "")")
            let detail = try await serve.store.orders.detail("n-1")
            #expect(detail.order.state == .refunded)
            #expect(detail.grants.count == 1 && detail.grants[0].revokedAt != nil)
            // Support reads it on the order's timeline (console and `order show` alike).
            #expect(
                detail.timeline.contains { $0.kind == .notification(outcome: .applied) && $0.text.hasPrefix("Apple REFUND (#\(record.id)") },
                "\(detail.timeline.map(\.text))")

            // Apple retries with the same notificationUUID when our answer was lost.
            let again = try await Self.post(refund, in: serve)
            #expect(again.status == 200 && again.body["id"] as? Int == Int(record.id))
            try await Task.sleep(for: .milliseconds(200))
            #expect(try await serve.store.notifications.list().count == 1)
            let audit = try await serve.store.orders.detail("n-1").audit.filter { $0.action == .refund }
            #expect(audit.count <= 1 && detail.order.state == .refunded)
        }
    }

    @Test(
        "Out of order: a REFUND recovered late, signed before the REFUND_REVERSED already applied, is kept as superseded and does not take the delivery back",
        arguments: Backend.all)
    func outOfOrder(backend: Backend) async throws {
        try await IntakeTests.withServe(backend) { serve in
            let purchase = try await Self.delivered("n-2", product: "no_ads", kind: .nonConsumable, in: serve)
            let signedRefund = Date().addingTimeInterval(-3_600)
            try await serve.simulator.ledger.refund(transactionId: purchase.transactionId, at: signedRefund)
            let refundedPurchase = try #require(await serve.simulator.ledger.purchase(transactionId: purchase.transactionId))
            let refund = try await serve.simulator.notification("REFUND", about: refundedPurchase, signedAt: signedRefund)
            let reversal = try await serve.simulator.notification("REFUND_REVERSED", about: purchase, signedAt: signedRefund.addingTimeInterval(600))

            let reversed = try await Self.applied(try await Self.post(reversal, in: serve), in: serve)
            #expect(reversed.outcome == .applied)
            let late = try await Self.applied(try await Self.post(refund, in: serve), in: serve)
            #expect(late.outcome == .superseded, "\(late.said ?? "")")
            #expect(late.said?.contains("REFUND_REVERSED") == true)
            #expect(try await serve.store.orders.detail("n-2").order.state == .delivered)
            let stored = try #require(try await serve.store.orders.detail("n-2").transactions.first)
            #expect(stored.transaction.cancellationDate == nil, "the stale refund left no cancellation behind")
        }
    }

    @Test(
        "Forged, garbage, misdirected and oversized notifications are refused with a 4xx, change nothing, and are visible to operators", arguments: Backend.all)
    func forged(backend: Backend) async throws {
        try await IntakeTests.withServe(backend) { serve in
            let purchase = try await Self.delivered("n-3", product: "coins_60", kind: .consumable, in: serve)
            // Signed by a chain that is not Apple's (another simulator's root).
            let impostor = try AppStoreSimulator(bundleId: DemoCatalogue.bundleId)
            await impostor.ledger.adopt([purchase])
            let forged = try await impostor.notification("REFUND", about: purchase)
            let refused = try await Self.post(forged, in: serve)
            #expect(refused.status == 400, "\(refused.body)")
            // A real notification sent to the other environment's URL.
            let real = try await serve.simulator.notification("REFUND", about: purchase)
            #expect(try await Self.post(real, to: "sandbox", in: serve).status == 400)
            #expect(try await Self.post(body: "garbage \u{1b}]0;pwned\u{07}", to: "production", in: serve).status == 400)
            #expect(try await Self.post(body: #"{"signedPayload":"a.b.c"}"#, to: "production", in: serve).status == 400)
            let huge = String(repeating: "A", count: 300 * 1024)
            #expect(try await Self.post(body: #"{"signedPayload":"\#(huge)"}"#, to: "production", in: serve).status == 413)

            try await Task.sleep(for: .milliseconds(200))
            #expect(try await serve.store.orders.detail("n-3").order.state == .delivered, "nothing was taken back")
            let rejected = try await serve.store.notifications.list(outcome: .rejected)
            #expect(rejected.count == 4)
            let reasons = rejected.compactMap(\.rejection)
            #expect(reasons.contains(.wrongEnvironment(signed: "Production", endpoint: .sandbox)))
            #expect(reasons.contains(.notSignedPayloadBody))
            #expect(reasons.map(\.words).contains { $0.contains("Production notification came to the Sandbox URL") })
            let impostorRejection = try #require(rejected.first { $0.facts.uuid == forged.uuid }, "the forged one is kept")
            #expect(impostorRejection.facts.type == "REFUND", "it shows what it claimed")
            guard case .signatureRefused(let why) = impostorRejection.rejection else {
                Issue.record("\(String(describing: impostorRejection.rejection))"); return
            }
            #expect(why.contains("JWS rejected"), "\(why)")
            #expect(try await serve.metrics().contains(#"iapdesk_notifications_total{type="unknown",result="rejected"} 4"#))
        }
    }

    @Test("A REFUND for a transaction no order claims is kept as an orphan, refunded; a notification about a subscription nobody holds yet waits for its order")
    func orphans() async throws {
        try await IntakeTests.withServe(.sqlite) { serve in
            let stray = await serve.simulator.ledger.purchase(appleId: "stray@icloud", productId: "coins_980", kind: .consumable)
            try await serve.simulator.ledger.refund(transactionId: stray.transactionId)
            let refunded = try #require(await serve.simulator.ledger.purchase(transactionId: stray.transactionId))
            let record = try await Self.applied(try await Self.post(try await serve.simulator.notification("REFUND", about: refunded), in: serve), in: serve)
            #expect(record.outcome == .orphan)
            let orphan = try #require(try await serve.store.orders.orphans().first { $0.transaction.transactionId == stray.transactionId })
            #expect(orphan.transaction.cancellationDate != nil)

            let vip = await serve.simulator.ledger.purchase(appleId: "v@icloud", productId: "vip_monthly", kind: .autoRenewable)
            let subscribed = try await Self.applied(
                try await Self.post(try await serve.simulator.notification("SUBSCRIBED", subtype: "INITIAL_BUY", about: vip), in: serve), in: serve)
            #expect(subscribed.outcome == .orphan && subscribed.said?.contains("waits") == true)
        }
    }

    @Test(
        "A subscription's life by notification: DID_RENEW moves its end, AUTO_RENEW_DISABLED turns renewal off, EXPIRED ends it, and a stale status signed earlier is superseded",
        arguments: Backend.all)
    func subscriptionLife(backend: Backend) async throws {
        try await IntakeTests.withServe(backend) { serve in
            let vip = try await Self.delivered("n-4", product: "vip_monthly", kind: .autoRenewable, account: "acct-vip", in: serve)
            let otid = vip.originalTransactionId
            let renewal = try await serve.simulator.ledger.renew(originalTransactionId: otid)
            let renewed = try await Self.applied(try await Self.post(try await serve.simulator.notification("DID_RENEW", about: renewal), in: serve), in: serve)
            #expect(renewed.outcome == .applied && renewed.said?.contains("acct-vip, the owner") == true, "\(renewed.said ?? "")")
            var subscription = try #require(try await serve.store.subscriptions.detail(otid).subscription)
            #expect(subscription.expiresAt == renewal.expiresDate.map { Millis(($0.timeIntervalSince1970 * 1000).rounded()) })
            #expect(subscription.ownerAccount == "acct-vip")

            let staleEnable = try await serve.simulator.notification(
                "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_ENABLED", about: renewal,
                signedAt: Date().addingTimeInterval(-60))
            await serve.simulator.ledger.setAutoRenew(originalTransactionId: otid, false)
            let disabled = try await Self.applied(
                try await Self.post(
                    try await serve.simulator.notification("DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED", about: renewal), in: serve),
                in: serve)
            #expect(disabled.outcome == .applied)
            subscription = try #require(try await serve.store.subscriptions.detail(otid).subscription)
            #expect(subscription.autoRenew == false && subscription.factsSource == .notification)

            let stale = try await Self.applied(try await Self.post(staleEnable, in: serve), in: serve)
            #expect(stale.outcome == .superseded)
            #expect(try await serve.store.subscriptions.detail(otid).subscription?.autoRenew == false, "the older fact changed nothing")

            // Apple ends the period and says so: EXPIRED, with the subscription's status 2.
            try await serve.simulator.expireAndNotify(originalTransactionId: otid, reason: .voluntary, at: Date().addingTimeInterval(1))
            let expiry = try #require(await serve.simulator.notifications.entries.last?.notification)
            let expired = try await Self.applied(try await Self.post(expiry, in: serve), in: serve)
            #expect(expired.outcome == .applied)
            #expect(try await serve.store.subscriptions.detail(otid).subscription?.status == .expired)
            let told = try await serve.store.subscriptions.detail(otid).notifications
            #expect(
                told.map(\.facts.kind) == [
                    "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED", "DID_RENEW", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "EXPIRED/VOLUNTARY",
                ],
                "the subscription screen lists them by signed date: \(told.map(\.facts.kind))")

            // The game reads back what the account owns, as R8 and the notifications left it.
            let owned = try await serve.call(.GET, "/v1/accounts/acct-vip/entitlements")
            let subscriptions = try #require(owned.body["subscriptions"] as? [[String: Any]])
            #expect(owned.status == 200 && subscriptions.count == 1)
            #expect(subscriptions.first?["status"] as? String == "expired" && subscriptions.first?["auto_renew"] as? Bool == false)
        }
    }

    @Test("TEST is answered and recorded; CONSUMPTION_REQUEST is kept with Apple's 12-hour deadline for an operator")
    func testAndConsumption() async throws {
        try await IntakeTests.withServe(.sqlite) { serve in
            let purchase = try await Self.delivered("n-5", product: "coins_60", kind: .consumable, in: serve)
            let test = try await Self.applied(try await Self.post(try await serve.simulator.notification("TEST", about: purchase), in: serve), in: serve)
            #expect(test.outcome == .recorded && test.said == "test notification")
            let signed = Date()
            let request = try await serve.simulator.notification(
                "CONSUMPTION_REQUEST", about: purchase, signedAt: signed, consumptionRequestReason: "UNINTENDED_PURCHASE")
            let record = try await Self.applied(try await Self.post(request, in: serve), in: serve)
            #expect(record.outcome == .recorded && record.said?.contains("UNINTENDED_PURCHASE") == true)
            #expect(record.deadline == Millis((signed.timeIntervalSince1970 * 1000).rounded()) + Millis.hours(12))
            #expect(try await serve.store.orders.detail("n-5").order.state == .delivered)
        }
    }

    @Test("Live: the simulator posts REFUND to serve's production URL the moment Apple refunds, and the order is refunded", arguments: Backend.all)
    func liveFromSimulator(backend: Backend) async throws {
        try await IntakeTests.withServe(backend) { serve in
            await serve.simulator.notifications.configure(production: serve.baseURL + "/apple/notifications/production", sandbox: nil)
            let purchase = try await Self.delivered("n-6", product: "coins_980", kind: .consumable, in: serve)
            try await serve.simulator.refundAndNotify(transactionId: purchase.transactionId)
            // Posted at once; on a loaded machine the simulator may give up waiting for the 200
            // (serve stored it all the same), so what counts is that the order is refunded.
            #expect(await serve.simulator.notifications.entries.last?.attempts.isEmpty == false, "posted the moment Apple refunded")
            #expect(try await IntakeTests.waitFor("refunded", order: "n-6", in: serve)["state"] as? String == "refunded")
        }
    }

    @Test(
        "Receiver down: Apple's post fails, and the worker's sweep of Get Notification History recovers the REFUND through the same checks; Apple's later retry is a duplicate",
        arguments: Backend.all)
    func recoveredFromHistory(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, serverAPI: true, historyInterval: 300) { serve in
            // Nothing listens on port 9 of loopback: the receiver is down when Apple posts.
            await serve.simulator.notifications.configure(
                production: "http://127.0.0.1:9/apple/notifications/production", sandbox: nil,
                retryDelays: [.seconds(3_600)])
            let purchase = try await Self.delivered("n-7", product: "no_ads", kind: .nonConsumable, in: serve)
            try await serve.simulator.refundAndNotify(transactionId: purchase.transactionId)
            let sent = try #require(await serve.simulator.notifications.entries.last)
            #expect(sent.attempts.map(\.result) == ["NO_RESPONSE"])

            let refunded = try await IntakeTests.waitFor("refunded", order: "n-7", in: serve)
            #expect(refunded["state"] as? String == "refunded", "the sweep recovered the refund: \(refunded)")
            let recovered = try #require(try await serve.store.notifications.list().first { $0.facts.uuid == sent.notification.uuid })
            #expect(recovered.via == .history && recovered.outcome == .applied)
            #expect(try await serve.store.serviceState("notification_history.Production") != nil, "the watermark is kept")

            // The receiver is back and Apple's retry arrives: the same notification, stored once.
            let retry = try await Self.post(sent.notification, in: serve)
            #expect(retry.status == 200 && retry.body["id"] as? Int == Int(recovered.id))
            #expect(try await serve.store.notifications.list().filter { $0.facts.uuid == sent.notification.uuid }.count == 1)
        }
    }
}
