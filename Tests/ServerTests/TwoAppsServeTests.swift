import AppStore
import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import Server
import SyntheticData
import TestSupport
import Testing

/// A studio's two games served by one `serve` over one store: each game's Apple
/// is a simulator of its own, with its own shared secret and In-App Purchase key, so a call
/// made with the wrong app's credentials fails as it would at Apple.
@Suite("serve: two games in one store")
struct TwoAppsServeTests {
    static let dragon = DemoCatalogue.bundleId
    static let kitten = "com.studio.kitten"
    static let kittenCatalogue = SimulatedCatalogue([
        SimulatedProduct("fish_10", kind: .consumable, priceMilli: 1_000),
        SimulatedProduct("kitten_vip", kind: .autoRenewable, priceMilli: 12_000, group: "31000001"),
    ])

    @Test(
        "Two games through one serve: each order verified with its own app's shared secret and key and delivered; a signed transaction of the other game is refused; notifications are routed by bundleId (a stranger's refused); events and orders name their app; Apple's order id is looked up as each app",
        arguments: Backend.all)
    func twoGames(backend: Backend) async throws {
        let dragonApple = try AppStoreSimulator(bundleId: Self.dragon, sharedSecret: "dragon-secret")
        // One Apple, one root: the second game's simulator signs with the same authority.
        let kittenApple = try AppStoreSimulator(
            bundleId: Self.kitten, sharedSecret: "kitten-secret", authority: dragonApple.authority, catalogue: Self.kittenCatalogue,
            firstTransactionId: 3_000_000_000_000_001)
        let dragonServer = try await SimulatorServer.start(dragonApple)
        let kittenServer = try await SimulatorServer.start(kittenApple)
        let location = try await backend.freshLocation()
        var storeSettings = StoreSettings(bundleId: Self.dragon)
        storeSettings.apps = [Self.dragon, Self.kitten]
        let store = try await OrderStore.open(location, settings: storeSettings)
        var apple = AppStoreSettings(
            bundleId: Self.dragon, verifyReceipt: .simulator(dragonServer.baseURL, sharedSecret: Secret(value: "dragon-secret", origin: "test")),
            serverAPI: try Self.key(of: dragonApple, at: dragonServer.baseURL), trust: dragonApple.trustRoots)
        apple.otherApps = [
            AppStoreSettings.AppleApp(
                bundleId: Self.kitten, verifyReceipt: .simulator(kittenServer.baseURL, sharedSecret: Secret(value: "kitten-secret", origin: "test")),
                serverAPI: try Self.key(of: kittenApple, at: kittenServer.baseURL))
        ]
        let verifier = AppleVerifier(settings: apple)
        var serve: IAPDeskServer?
        do {
            for var product in DemoCatalogue.products {
                product.app = Self.dragon
                try await store.catalogue.upsert(product)
            }
            try await store.catalogue.upsert(
                Product(productId: "fish_10", type: .consumable, displayName: "10 条鱼", priceMinor: 100, currency: "CNY", app: Self.kitten))
            try await store.catalogue.upsert(
                Product(
                    productId: "kitten_vip", type: .autoRenewable, displayName: "Kitten VIP", priceMinor: 1_200, currency: "CNY",
                    subscriptionGroup: "31000001", groupLevel: 1, app: Self.kitten))
            var workerSettings = Worker.Settings()
            workerSettings.idle = .milliseconds(20)
            let started = try await IAPDeskServer.start(
                store: store, verifier: verifier, tokens: ClientTokens([("game-1", IntakeTests.token)]), port: 0, workerSettings: workerSettings,
                logger: IntakeTests.quietLogger)
            serve = started
            let running = IntakeTests.Running(simulator: dragonApple, store: store, baseURL: try #require(started.baseURL), verifier: verifier)
            try await Self.scenario(running, dragonApple: dragonApple, kittenApple: kittenApple)
        } catch {
            Issue.record(error)
        }
        await serve?.stop()
        await verifier.shutdown()
        await dragonServer.stop()
        await kittenServer.stop()
        await store.close()
        Backend.cleanUp(location)
    }

    static func scenario(_ serve: IntakeTests.Running, dragonApple: AppStoreSimulator, kittenApple: AppStoreSimulator) async throws {
        // Dragon: a coin pack, verified with Dragon's shared secret.
        let dragonOrder = try await serve.callAsGame(.POST, "/v1/orders", json: #"{"order_id":"d-1","account_id":"p-1","product_id":"coins_60"}"#)
        #expect(dragonOrder.status == 201 && dragonOrder.body["app"] as? String == dragon, "\(dragonOrder.body)")
        await dragonApple.ledger.purchase(appleId: "p1@icloud", productId: "coins_60", kind: .consumable, appAccountToken: "d-1")
        let dragonReceipt = try await dragonApple.ledger.receipt(appleId: "p1@icloud")
        let dragonSubmitted = try await serve.callAsGame(.POST, "/v1/orders/d-1/receipts", json: #"{"receipt_data":"\#(dragonReceipt)"}"#)
        #expect(dragonSubmitted.status == 202, "\(dragonSubmitted)")

        // Kitten: a subscription, whose receipt Apple reads only with Kitten's shared secret.
        #expect(try await serve.callAsGame(.POST, "/v1/orders", json: #"{"order_id":"k-1","account_id":"p-1","product_id":"kitten_vip"}"#).status == 201)
        await kittenApple.ledger.purchase(appleId: "p1@icloud", productId: "kitten_vip", kind: .autoRenewable, appAccountToken: "k-1")
        let kittenReceipt = try await kittenApple.ledger.receipt(appleId: "p1@icloud")
        let kittenSubmitted = try await serve.callAsGame(.POST, "/v1/orders/k-1/receipts", json: #"{"receipt_data":"\#(kittenReceipt)"}"#)
        #expect(kittenSubmitted.status == 202, "\(kittenSubmitted)")

        // Kitten, StoreKit 2: checked at the door as Kitten's, then asked of Kitten's Server API with Kitten's key.
        #expect(try await serve.callAsGame(.POST, "/v1/orders", json: #"{"order_id":"k-2","account_id":"p-2","product_id":"fish_10"}"#).status == 201)
        let fish = await kittenApple.ledger.purchase(appleId: "p2@icloud", productId: "fish_10", kind: .consumable, appAccountToken: "k-2")
        let otherGame = try await dragonApple.signedTransaction(
            await dragonApple.ledger.purchase(appleId: "p2@icloud", productId: "coins_60", kind: .consumable, appAccountToken: "k-2"))
        let refused = try await serve.callAsGame(.POST, "/v1/orders/k-2/receipts", json: #"{"signed_transaction":"\#(otherGame)"}"#)
        #expect(refused.status == 400 && (refused.body["detail"] as? String)?.contains(dragon) == true, "\(refused.body)")
        let signed = try await kittenApple.signedTransaction(fish)
        let accepted = try await serve.callAsGame(.POST, "/v1/orders/k-2/receipts", json: #"{"signed_transaction":"\#(signed)"}"#)
        #expect(accepted.status == 202, "\(accepted.status) \(accepted.body)")

        for order in ["d-1", "k-1", "k-2"] {
            let delivered = try await IntakeTests.waitFor("delivered", order: order, in: serve)
            #expect(delivered["state"] as? String == "delivered", "\(order): \(delivered)")
        }
        #expect(try await serve.store.orders.detail("k-2").attempts.last?.method == .serverAPI)
        #expect(try await serve.store.orders.find("k-1")?.app == kitten)

        // Apple's notifications for both games come to one URL and are routed by bundleId.
        try await kittenApple.ledger.refund(transactionId: fish.transactionId, reason: 1)
        let refundedFish = try #require(await kittenApple.ledger.purchase(transactionId: fish.transactionId))
        let kittenRefund = try await kittenApple.notification("REFUND", about: refundedFish)
        let record = try await NotificationTests.applied(try await NotificationTests.post(kittenRefund, in: serve), in: serve)
        #expect(record.outcome == .applied && record.facts.app == kitten, "\(record.said ?? "")")
        #expect(try await serve.store.orders.find("k-2")?.state == .refunded)
        let stranger = try AppStoreSimulator(bundleId: "com.other.game", authority: dragonApple.authority)
        let strangers = await stranger.ledger.purchase(appleId: "s@icloud", productId: "coins_60", kind: .consumable)
        let foreign = try await NotificationTests.post(try await stranger.notification("REFUND", about: strangers), in: serve)
        #expect(foreign.status == 400 && (foreign.body["detail"] as? String)?.contains("does not serve") == true, "\(foreign.body)")

        // The game servers share one feed: each event names its app.
        let events = try #require(try await serve.call(.GET, "/v1/events?after=0").body["events"] as? [[String: Any]])
        let apps = Dictionary(events.map { ($0["order_id"] as? String ?? "", $0["app"] as? String ?? "") }, uniquingKeysWith: { first, _ in first })
        #expect(apps["d-1"] == dragon && apps["k-1"] == kitten && apps["k-2"] == kitten, "\(apps)")

        // A player's Apple order id names no app: it is asked as each until one knows it.
        let client = try #require(serve.verifier.serverAPI)
        let found = try await serve.store.orders.findAppleOrder(fish.appleOrderId) { await client.invoice($0, environment: $1) }
        let invoice = try #require(found.invoice, "\(found)")
        #expect(invoice.orders.map(\.orderId) == ["k-2"])
    }

    static func key(of simulator: AppStoreSimulator, at base: String) throws -> ServerAPICredentials {
        try ServerAPICredentials(
            issuerId: simulator.apiKey.issuerId, keyId: simulator.apiKey.keyId, p8: Secret(value: simulator.apiKey.p8PEM, origin: "test"),
            productionURL: base, sandboxURL: base + "/sandbox")
    }
}
