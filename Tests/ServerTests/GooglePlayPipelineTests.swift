import Foundation
import GooglePlaySimulator
import OrderDomain
import OrderStore
import Server
import SyntheticData
import TestSupport
import Testing
import WebTokens
import _CryptoExtras

/// Google Play through everything `serve` does, on both backends, against the Google Play
/// simulator over loopback: the game server submits purchase tokens on the same order API,
/// the worker asks Google with its service account, grants once and acknowledges; Pub/Sub
/// pushes real-time developer notifications with signed tokens. Each case is set up in the
/// order it happens in life. One case at a time: each starts a serve and two simulators.
@Suite("serve: Google Play purchases, notifications and refunds", .serialized)
struct GooglePlayPipelineTests {
    static let package = DemoCatalogue.bundleId

    /// Places an order and submits a Play purchase token for it, as a game server does.
    static func submit(
        _ serve: IntakeTests.Running, order: String, account: String, product: String, token: String, package: String = package, consume: Bool = false
    ) async throws -> (status: Int, body: [String: Any]) {
        let placed = try await serve.callAsGame(.POST, "/v1/orders", json: #"{"order_id":"\#(order)","account_id":"\#(account)","product_id":"\#(product)"}"#)
        #expect(placed.status == 201 || placed.status == 200, "\(placed)")
        let purchase = #"{"package_name":"\#(package)","purchase_token":"\#(token)","consume":\#(consume)}"#
        return try await serve.callAsGame(.POST, "/v1/orders/\(order)/receipts", json: #"{"google_play":\#(purchase)}"#)
    }

    static func play(_ serve: IntakeTests.Running) throws -> GooglePlaySimulator { try #require(serve.play) }

    static func events(_ serve: IntakeTests.Running, order: String) async throws -> [[String: Any]] {
        try await serve.store.outbox.events(orderId: order).compactMap {
            try JSONSerialization.jsonObject(with: Data($0.event.payload.utf8)) as? [String: Any]
        }
    }

    @Test(
        "R1, R3, R11: a push before the purchase, then the game's submission: stored (202), verified with Google, granted once, acknowledged; the event names the store",
        arguments: Backend.all)
    func paidPurchase(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, googlePlay: true) { serve in
            let play = try Self.play(serve)
            // Google tells first (the player paid; the game server has not heard yet).
            let bought = try await play.purchaseAndNotify(productId: "coins_300", account: "p-1")
            #expect(
                try await eventually(within: 90) { try await serve.store.googlePlay.purchase(token: bought.token) != nil },
                "the push's question to Google was kept")
            let submitted = try await Self.submit(serve, order: "gp-1", account: "p-1", product: "coins_300", token: bought.token)
            #expect(submitted.status == 202 && submitted.body["store"] as? String == "google_play", "\(submitted)")
            let order = try await IntakeTests.waitFor("delivered", order: "gp-1", in: serve)
            #expect(order["transaction_id"] as? String == bought.orderId)
            #expect(try await eventually { await play.ledger.purchase(token: bought.token)?.acknowledged == true }, "acknowledged at Google")
            #expect(try await eventually { try await serve.store.googlePlay.purchase(token: bought.token)?.acknowledgedAt != nil })
            let events = try await Self.events(serve, order: "gp-1")
            #expect(events.map { $0["type"] as? String } == ["delivered"] && events.first?["store"] as? String == "google_play", "\(events)")
            // The same token submitted again for the same order, or re-verified: still one grant.
            _ = try await serve.callAsGame(
                .POST, "/v1/orders/gp-1/receipts", json: #"{"google_play":{"package_name":"\#(Self.package)","purchase_token":"\#(bought.token)"}}"#)
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await Self.events(serve, order: "gp-1").count == 1)
        }
    }

    @Test("A consumable the game wants bought again is consumed at Google once granted", arguments: Backend.all)
    func consumed(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, googlePlay: true) { serve in
            let play = try Self.play(serve)
            let bought = try await play.purchaseAndNotify(productId: "coins_60", account: "p-2")
            _ = try await Self.submit(serve, order: "gp-c", account: "p-2", product: "coins_60", token: bought.token, consume: true)
            _ = try await IntakeTests.waitFor("delivered", order: "gp-c", in: serve)
            #expect(try await eventually { await play.ledger.purchase(token: bought.token)?.consumed == true }, "consumed at Google")
            #expect(try await eventually { try await serve.store.googlePlay.purchase(token: bought.token)?.consumedAt != nil })
        }
    }

    @Test(
        "Pending, then paid: the order waits (no grant) and is granted when Google's notification says the payment settled; a cancelled pending purchase is never granted",
        arguments: Backend.all)
    func pendingThenPaid(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, googlePlay: true) { serve in
            let play = try Self.play(serve)
            let paid = try await play.purchaseAndNotify(productId: "coins_300", account: "p-3", pending: true)
            let abandoned = try await play.purchaseAndNotify(productId: "coins_300", account: "p-3", pending: true)
            _ = try await Self.submit(serve, order: "gp-p", account: "p-3", product: "coins_300", token: paid.token)
            _ = try await Self.submit(serve, order: "gp-x", account: "p-3", product: "coins_300", token: abandoned.token)
            let waiting = try await IntakeTests.waitFor("verify_retry", order: "gp-p", in: serve)
            #expect((waiting["last_error"] as? String)?.contains("pending") == true, "\(waiting)")
            #expect(waiting["reason_code"] as? String == "google.pending", "the game server can branch on the code: \(waiting)")
            _ = try await IntakeTests.waitFor("verify_retry", order: "gp-x", in: serve)
            #expect(try await Self.events(serve, order: "gp-p").isEmpty)
            try await play.settlePendingAndNotify(paid.token, paid: true)
            try await play.settlePendingAndNotify(abandoned.token, paid: false)
            // Well before R4's next try: the notification's question to Google settles it.
            _ = try await IntakeTests.waitFor("delivered", order: "gp-p", in: serve, seconds: 15)
            let rejected = try await IntakeTests.waitFor("rejected", order: "gp-x", in: serve, seconds: 15)
            #expect((rejected["last_error"] as? String)?.contains("cancelled") == true, "\(rejected)")
            #expect(rejected["reason_code"] as? String == "google.cancelled_before_payment", "\(rejected)")
            #expect(try await Self.events(serve, order: "gp-x").isEmpty)
            #expect(try await eventually { await play.ledger.purchase(token: paid.token)?.acknowledged == true })
        }
    }

    @Test(
        "R7: a token replayed by a second account is refused and flagged; a token of another package is refused by Google; a package not configured is refused at the door",
        arguments: Backend.all)
    func replayAndOtherPackage(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, googlePlay: true) { serve in
            let play = try Self.play(serve)
            let bought = try await play.purchaseAndNotify(productId: "no_ads", account: "p-4")
            _ = try await Self.submit(serve, order: "gp-r1", account: "p-4", product: "no_ads", token: bought.token)
            _ = try await IntakeTests.waitFor("delivered", order: "gp-r1", in: serve)
            _ = try await Self.submit(serve, order: "gp-r2", account: "p-5", product: "no_ads", token: bought.token)
            let replay = try await IntakeTests.waitFor("rejected", order: "gp-r2", in: serve)
            #expect((replay["last_error"] as? String)?.contains("replay") == true, "\(replay)")
            #expect(replay["reason_code"] as? String == "r7.replay", "\(replay)")
            #expect(try await serve.store.orders.find("gp-r2")?.replayFlag == true)

            let foreign = try await play.ledger.buy(packageName: IntakeTests.otherPackage, productId: "coins_60", account: "p-6")
            _ = try await Self.submit(serve, order: "gp-o1", account: "p-6", product: "coins_60", token: foreign.token)
            let refused = try await IntakeTests.waitFor("rejected", order: "gp-o1", in: serve)
            #expect((refused["last_error"] as? String)?.contains("Google knows no such purchase") == true, "\(refused)")
            let door = try await Self.submit(
                serve, order: "gp-o2", account: "p-6", product: "coins_60", token: foreign.token, package: IntakeTests.otherPackage)
            #expect(door.status == 400 && (door.body["detail"] as? String)?.contains("package_name") == true, "\(door)")
            #expect(try await serve.store.orders.find("gp-o2")?.state == .pendingPayment)
        }
    }

    @Test(
        "R9: a voided purchase revokes the grant and tells the game; a quantity-based partial refund takes back its units and the order stays delivered",
        arguments: Backend.all)
    func voided(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, googlePlay: true) { serve in
            let play = try Self.play(serve)
            let whole = try await play.purchaseAndNotify(productId: "coins_300", account: "p-7")
            let pack = try await play.purchaseAndNotify(productId: "coins_60", account: "p-7", quantity: 3)
            _ = try await Self.submit(serve, order: "gp-v1", account: "p-7", product: "coins_300", token: whole.token)
            let placed = try await serve.callAsGame(.POST, "/v1/orders", json: #"{"order_id":"gp-v2","account_id":"p-7","product_id":"coins_60","quantity":3}"#)
            #expect(placed.status == 201)
            _ = try await serve.callAsGame(
                .POST, "/v1/orders/gp-v2/receipts", json: #"{"google_play":{"package_name":"\#(Self.package)","purchase_token":"\#(pack.token)"}}"#)
            _ = try await IntakeTests.waitFor("delivered", order: "gp-v1", in: serve)
            _ = try await IntakeTests.waitFor("delivered", order: "gp-v2", in: serve)
            try await play.voidAndNotify(whole.token)
            try await play.voidAndNotify(pack.token, quantity: 1)
            _ = try await IntakeTests.waitFor("refunded", order: "gp-v1", in: serve)
            #expect(try await eventually { try await Self.events(serve, order: "gp-v2").contains { $0["type"] as? String == "partially_refunded" } })
            let refunded = try await Self.events(serve, order: "gp-v1").first { $0["type"] as? String == "refunded" }
            #expect(refunded?["store"] as? String == "google_play", "\(String(describing: refunded))")
            let partial = try await Self.events(serve, order: "gp-v2").first { $0["type"] as? String == "partially_refunded" }
            #expect((partial?["effect"] as? [String: Any])?["quantity"] as? Int == 1, "\(String(describing: partial))")
            #expect(try await serve.store.orders.find("gp-v2")?.state == .delivered)
        }
    }

    @Test("A refund whose notification never arrived is found by the voided purchases sweep, applied once", arguments: Backend.all)
    func voidedSweep(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, googlePlay: true, worker: { $0.voidedInterval = .seconds(1) }) { serve in
            let play = try Self.play(serve)
            let bought = try await play.purchaseAndNotify(productId: "no_ads", account: "p-8")
            _ = try await Self.submit(serve, order: "gp-s", account: "p-8", product: "no_ads", token: bought.token)
            _ = try await IntakeTests.waitFor("delivered", order: "gp-s", in: serve)
            await play.notifications.configure(url: nil)  // Pub/Sub loses the refund's push
            try await play.voidAndNotify(bought.token)
            _ = try await IntakeTests.waitFor("refunded", order: "gp-s", in: serve, seconds: 20)
            try await Task.sleep(for: .seconds(2))  // more sweeps read the same record
            #expect(try await Self.events(serve, order: "gp-s").filter { $0["type"] as? String == "refunded" }.count == 1)
        }
    }

    @Test(
        "Subscriptions: a renewal Google tells moves the owner's period; a plan change's new token joins the chain, stays the owner's, and is acknowledged",
        arguments: Backend.all)
    func subscription(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, googlePlay: true) { serve in
            let play = try Self.play(serve)
            let bought = try await play.purchaseAndNotify(productId: "vip_monthly", account: "p-9")
            _ = try await Self.submit(serve, order: "gp-sub", account: "p-9", product: "vip_monthly", token: bought.token)
            _ = try await IntakeTests.waitFor("delivered", order: "gp-sub", in: serve)
            let otid = try #require(try await serve.store.orders.find("gp-sub")?.originalTransactionId)
            #expect(otid == bought.orderId)
            let firstEnd = try await serve.store.subscriptions.detail(otid).subscription?.expiresAt
            let renewed = try await play.renewAndNotify(bought.token)
            let renewedEnd = renewed.expiryTime.map { Millis(($0.timeIntervalSince1970 * 1000).rounded()) }
            #expect(try await eventually { try await serve.store.subscriptions.detail(otid).subscription?.expiresAt == renewedEnd }, "renewed")
            #expect(renewedEnd != firstEnd)
            let upgraded = try await play.changePlanAndNotify(bought.token, to: "vip_yearly")
            #expect(try await eventually { await play.ledger.purchase(token: upgraded.token)?.acknowledged == true }, "the new token acknowledged")
            let detail = try await serve.store.subscriptions.detail(otid)
            #expect(detail.subscription?.ownerAccount == "p-9")
            #expect(detail.chain.contains { $0.transaction.purchaseToken == upgraded.token }, "the new token's order is in the chain")
            // Google's notifications name tokens, not the subscription: its page finds them by its chain's tokens.
            let told = try await eventually {
                let types = try await serve.store.subscriptions.detail(otid).notifications.compactMap(\.facts.type)
                return types.filter { $0 == "SUBSCRIPTION_PURCHASED" }.count == 2 && types.contains("SUBSCRIPTION_RENEWED")
            }
            let listed = try await serve.store.subscriptions.detail(otid).notifications.map { "\($0.facts.kind) \($0.marketplace)" }
            #expect(told, "\(listed)")
        }
    }

    @Test("Three-day rule: a paid purchase nobody delivered becomes an operator alert a day before Google would refund it", arguments: Backend.all)
    func acknowledgementAtRisk(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, googlePlay: true) { serve in
            let play = try Self.play(serve)
            let bought = try await play.purchaseAndNotify(productId: "coins_60", account: "p-10", at: Date().addingTimeInterval(-2.5 * 86_400))
            #expect(try await eventually(within: 30) { try await serve.store.googlePlay.purchase(token: bought.token) != nil })
            let alerts = try await serve.store.reports.operatorAlerts()
            #expect(alerts.contains { $0.reason == .googleAcknowledgementDue && $0.orders == 1 }, "\(alerts)")
            #expect(alerts.first { $0.reason == .googleAcknowledgementDue }?.banner.contains("Google Play refunds") == true)
            #expect(try await serve.store.googlePlay.acknowledgementsAtRisk().map(\.facts.purchaseToken) == [bought.token])
        }
    }

    @Test(
        "A forged, expired or misaddressed push is refused and stored nowhere; a replayed one stores nothing new; a test notification is recorded",
        arguments: Backend.all)
    func forgedPush(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, googlePlay: true) { serve in
            let play = try Self.play(serve)
            await play.testNotification()
            #expect(try await eventually { try await serve.store.notifications.list().contains { $0.facts.type == "TEST_NOTIFICATION" } })
            #expect(try await serve.store.notifications.list(store: .googlePlay).map(\.facts.type) == ["TEST_NOTIFICATION"], "kept as Google's")
            #expect(try await serve.store.notifications.list(store: .appStore).isEmpty)
            let entry = try #require(await play.notifications.entries.last)
            let genuine = try #require(entry.tokens.last)
            let before = try await serve.store.notifications.list(limit: 500).count
            // A replay of the captured push: the same message id, nothing new stored.
            let replay = try await serve.callWithHeaders(.POST, "/google/notifications", json: entry.message.body, token: genuine)
            #expect(replay.status == 200)
            // The same body with tokens Google did not sign for us.
            let stranger = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            let header = try WebToken(compact: genuine).header
            let claims = try JSONSerialization.jsonObject(with: try WebToken(compact: genuine).payload) as? [String: Any] ?? [:]
            func signed(_ changes: [String: Any], key: _RSA.Signing.PrivateKey) throws -> String {
                let merged = claims.merging(changes) { $1 }
                return try WebToken.sign(AnyClaims(merged), with: key, keyId: header.kid)
            }
            let forgeries = [
                try signed([:], key: stranger),  // the right claims, another key
                try play.keys.pushToken(audience: IntakeTests.playAudience, now: Date().addingTimeInterval(-7_200)),  // Google's, expired
                try play.keys.pushToken(audience: "https://attacker.example/push"),  // Google's, for someone else
                String(genuine.dropLast(4)) + "AAAA",  // altered
                "not-a-token",
            ]
            for forged in forgeries {
                let body = entry.message.body.replacingOccurrences(of: entry.message.messageId, with: "9\(entry.message.messageId)")
                let answer = try await serve.callWithHeaders(.POST, "/google/notifications", json: body, token: forged)
                #expect(answer.status == 401, "\(answer)")
            }
            #expect(try await serve.callWithHeaders(.POST, "/google/notifications", json: entry.message.body, token: nil).status == 401)
            #expect(try await serve.store.notifications.list(limit: 500).count == before)
        }
    }
}

extension GooglePlayPipelineTests {
    @Test(
        "A burst of pushes as serve starts: every one is taken while Google's keys are fetched once, none refused as unknown",
        arguments: [Backend.sqlite])
    func burstAtStart(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, googlePlay: true) { serve in
            let play = try Self.play(serve)
            let token = try play.keys.pushToken(audience: IntakeTests.playAudience)
            var messages: [String] = []
            for index in 0..<16 {
                let bought = try await play.ledger.buy(packageName: Self.package, productId: "coins_60", account: "burst-\(index)")
                messages.append(await play.oneTimeMessage(bought).body)
            }
            let statuses = await withTaskGroup(of: Int.self) { group in
                for body in messages {
                    group.addTask { (try? await serve.callWithHeaders(.POST, "/google/notifications", json: body, token: token).status) ?? 0 }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
        }
    }
}

extension GooglePlayPipelineTests {
    @Test(
        "R8 in life's order: A subscribes; Google renews and says so before anyone submits it; B, on the same Google account, submits the token: A keeps it, B's order is disputed, nothing granted twice",
        arguments: Backend.all)
    func renewalSubmittedBySecondAccount(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, googlePlay: true) { serve in
            let play = try Self.play(serve)
            let bought = try await play.purchaseAndNotify(productId: "vip_monthly", account: "p-a")
            _ = try await Self.submit(serve, order: "gp-a", account: "p-a", product: "vip_monthly", token: bought.token)
            _ = try await IntakeTests.waitFor("delivered", order: "gp-a", in: serve)
            let renewed = try await play.renewAndNotify(bought.token)
            let renewal = try #require(renewed.latestOrderId)
            let first = try #require(bought.orderId)
            #expect(renewal != first && renewal.hasPrefix(first), "a renewal's order id is the first one's with a suffix")
            // Google's word on the renewal reaches the store before any game server submits it.
            let otid = try #require(try await serve.store.orders.find("gp-a")?.originalTransactionId)
            #expect(try await eventually { try await serve.store.subscriptions.detail(otid).chain.contains { $0.transaction.transactionId == renewal } })
            _ = try await Self.submit(serve, order: "gp-b", account: "p-b", product: "vip_monthly", token: bought.token)
            let b = try await IntakeTests.waitFor("disputed", order: "gp-b", in: serve)
            #expect(b["state"] as? String == "disputed", "\(b)")
            #expect(b["transaction_id"] as? String == renewal, "B's order names the renewal it submitted")
            #expect(try await serve.store.orders.detail("gp-b").grants.isEmpty, "nothing granted to B")
            #expect(try await serve.store.orders.detail("gp-a").grants.count == 1)
            #expect(try await serve.store.subscriptions.detail(otid).subscription?.ownerAccount == "p-a")
            // The dispute is Google's: listed with Google's, not with Apple's.
            #expect(try await serve.store.subscriptions.detail(otid).subscription?.marketplace == .googlePlay)
            let google = try await serve.store.subscriptions.disputes(in: .googlePlay)
            #expect(google.map(\.event.orderId) == ["gp-b"] && google.map(\.marketplace) == [.googlePlay])
            #expect(try await serve.store.subscriptions.disputes(in: .appStore).isEmpty)
        }
    }

    @Test("R2: a license tester's test purchase is delivered and flagged as a sandbox purchase in a production store", arguments: [Backend.sqlite])
    func testPurchase(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, googlePlay: true) { serve in
            let play = try Self.play(serve)
            let bought = try await play.purchaseAndNotify(productId: "coins_60", account: "p-t", test: true)
            _ = try await Self.submit(serve, order: "gp-t", account: "p-t", product: "coins_60", token: bought.token)
            let order = try await IntakeTests.waitFor("delivered", order: "gp-t", in: serve)
            #expect(order["environment"] as? String == "Sandbox", "\(order)")
            let verdict = try #require(try await serve.store.orders.detail("gp-t").attempts.first?.verdict)
            #expect(verdict.sandboxInProduction, "flagged apart, as Apple's sandbox purchases are")
            #expect(try await serve.store.googlePlay.purchase(token: bought.token)?.facts.isTest == true)
        }
    }

    @Test(
        "R9 in life's order: Google voids a purchase before the game submits it; the game's late submission is never granted, and the game is told nothing was delivered",
        arguments: Backend.all)
    func voidBeforeSubmission(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, googlePlay: true) { serve in
            let play = try Self.play(serve)
            let bought = try await play.purchaseAndNotify(productId: "coins_300", account: "p-v")
            let orderId = try #require(bought.orderId)
            _ = try await play.voidAndNotify(bought.token)
            #expect(
                try await eventually { try await serve.store.orders.orphans(limit: 50).contains { $0.transaction.transactionId == orderId } },
                "kept as a refunded orphan")
            _ = try await Self.submit(serve, order: "gp-v", account: "p-v", product: "coins_300", token: bought.token)
            #expect(
                try await eventually(within: 30) {
                    let state = try await serve.store.orders.find("gp-v")?.state
                    return state == .rejected || state == .refunded
                })
            #expect(try await serve.store.orders.detail("gp-v").grants.allSatisfy { $0.revokedAt != nil }, "no live grant")
            let told = try await Self.events(serve, order: "gp-v").compactMap { $0["type"] as? String }
            #expect(told.last != "delivered", "the game is not left believing it delivered: \(told)")
        }
    }
}

/// Claims of any shape, for a forged token.
private struct AnyClaims: Encodable {
    let values: [String: Any]
    init(_ values: [String: Any]) { self.values = values }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (key, value) in values {
            let k = Key(stringValue: key)
            switch value {
            case let v as Bool: try container.encode(v, forKey: k)
            case let v as Int: try container.encode(v, forKey: k)
            case let v as Double: try container.encode(v, forKey: k)
            case let v as String: try container.encode(v, forKey: k)
            default: break
            }
        }
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
