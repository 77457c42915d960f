import AppStore
import AppStoreSimulator
import Foundation
import GooglePlay
import GooglePlaySimulator
import IAPDeskCLI
import Logging
import OrderDomain
import OrderStore
import ReferenceGame
import Server
import SyntheticData

/// The demo's production side, in-process for as long as the console runs: `serve` (the
/// intake API, Apple's notification receivers and the worker) on loopback, the simulator
/// posting its V2 notifications to it, and the reference game receiving the store's events.
/// A purchase submitted to the intake, or a renewal or refund made through the simulator's
/// controls, shows in the console within a refresh. The worker verifies what arrives live
/// and leaves the seeded stuck queue to the operator: that queue is the rehearsal.
enum DemoServe {
    static let gameSecret = "demo-game-webhook-secret"
    static let clientName = "demo-game-server"
    static let clientToken = "demo-game-server-token"

    /// Where things listen, for the help screen and `PATH.simulator/endpoints.txt`.
    struct Endpoints {
        var serve: String
        var simulator: String
        var play: String
        var game: String

        var helpLines: [(String, String)] {
            [
                ("serve", serve + "  (intake API, /apple/notifications/…, /metrics)"),
                ("simulator", simulator + "/control/…  (purchase, renew, refund, revoke)"),
                ("google play", play + "/control/…  (purchase, renew, void; GET /control lists them)"),
                ("game", game + "/players/ID  (the reference game's balances)"),
            ]
        }

        /// The file an operator reads to try the demo from another terminal.
        func text(storePath: String) -> String {
            """
            # iapdesk demo on \(storePath): try it from another terminal while the console runs.
            SERVE=\(serve)
            SIM=\(simulator)
            PLAY=\(play)
            GAME=\(game)
            TOKEN=\(DemoServe.clientToken)   # the demo game server's intake token

            # A player buys 60 coins through the simulated App Store; the game server submits it:
            curl -s -XPOST $SIM/control/purchase -d '{"appleId":"apple-try-1","productId":"coins_60","kind":"consumable"}'
            RECEIPT=$(curl -s "$SIM/control/receipt?appleId=apple-try-1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["receipt"])')
            curl -s -XPOST $SERVE/v1/orders -H "Authorization: Bearer $TOKEN" -d '{"order_id":"try-1","account_id":"player-try","product_id":"coins_60","quantity":1}'
            curl -s -XPOST "$SERVE/v1/orders/try-1/receipts?wait=5" -H "Authorization: Bearer $TOKEN" -d "{\\"receipt_data\\":\\"$RECEIPT\\"}"
            curl -s $GAME/players/player-try       # the game was told
            # Apple refunds it: the simulator notifies serve, the rules revoke, the game is told.
            # (the transaction id is in the answer above, and on the order in the console)
            curl -s -XPOST $SIM/control/refund -d '{"transactionId":"<transaction id>"}'

            # On Android: the player buys at Google (the answer has the purchase token); the game submits the token.
            curl -s -XPOST $PLAY/control/purchase -d '{"productId":"coins_60","account":"player-try"}'
            curl -s -XPOST $SERVE/v1/orders -H "Authorization: Bearer $TOKEN" -d '{"order_id":"try-2","account_id":"player-try","product_id":"coins_60","quantity":1}'
            curl -s -XPOST "$SERVE/v1/orders/try-2/receipts?wait=5" -H "Authorization: Bearer $TOKEN" -d '{"google_play":{"package_name":"\(DemoCatalogue.bundleId)","purchase_token":"<token>"}}'

            """
        }
    }

    static func running(
        store: OrderStore, verifier: AppleVerifier, simulator: SimulatorServer, play: (server: PlaySimulatorServer, client: PlayClient),
        gameFault: ReferenceGame.Fault,
        host: String, port: Int, _ body: (Endpoints) async throws -> Void
    ) async throws {
        let game = ReferenceGame(secret: gameSecret)
        await game.setFault(gameFault)
        let receiver = try await ReferenceGameServer.start(game)
        var settings = Worker.Settings()
        // Expiry polling would change the seeded subscriptions under the rehearsal, and
        // acknowledging at Google would settle the seeded acknowledgement owed (`:acks`): the
        // demo leaves Google's acknowledgements to the operator.
        settings.kinds = [.verify, .sendEvents, .applyNotifications, .notificationHistory, .playRefresh, .playVoidedSweep]
        settings.verifyCreatedSince = .now()
        var quiet = Logger(label: "iapdesk.demo.serve")
        quiet.logLevel = .critical  // the console owns the terminal
        let server: IAPDeskServer
        do {
            server = try await IAPDeskServer.start(
                store: store, verifier: verifier, googlePlay: play.client,
                game: GameWebhook(url: receiver.webhookURL, secrets: [Secret(value: gameSecret, origin: "demo")]),
                tokens: ClientTokens([(clientName, clientToken)]), host: host, port: port, workerSettings: settings, logger: quiet)
        } catch {
            await receiver.stop()
            throw error
        }
        let serveURL = server.baseURL ?? ""
        await simulator.simulator.notifications.configure(
            production: serveURL + "/apple/notifications/production", sandbox: serveURL + "/apple/notifications/sandbox")
        await play.server.simulator.notifications.configure(url: serveURL + "/google/notifications", audience: DemoPlayTickets.pushAudience)
        let endpoints = Endpoints(serve: serveURL, simulator: simulator.baseURL, play: play.server.baseURL, game: receiver.baseURL)
        try await askForRefunds(store: store, simulator: simulator.simulator)
        await game.failFirstTry(for: lostPlayers)
        try await loseEvents(store: store, simulator: simulator.simulator)
        func stop() async {
            await simulator.simulator.notifications.stop()
            await play.server.simulator.notifications.stop()
            await server.stop()
            await receiver.stop()
        }
        do {
            try await body(endpoints)
        } catch {
            await stop()
            throw error
        }
        await stop()
    }

    /// A live refund queue to practise on (`:refunds`): while none waits for an answer,
    /// players of three delivered purchases ask Apple for their money back, and the
    /// simulator sends serve Apple's CONSUMPTION_REQUESTs (12 hours to answer). The game
    /// reported how much of the first two was used, as a game would when coins are spent.
    static func askForRefunds(store: OrderStore, simulator: AppStoreSimulator) async throws {
        guard try await store.reports.counts().openRefundRequests == 0 else { return }
        let delivered = try await store.orders.page(OrderFilter(state: .delivered, productId: "coins_300", marketplace: .appStore), limit: 10).items
            .filter { $0.environment == .production }.prefix(3)
        for (index, order) in delivered.enumerated() {
            guard let transactionId = order.transactionId else { continue }
            if index < 2 {
                try await store.refunds.reportConsumption(
                    orderId: order.orderId, consumptionPercentage: index == 0 ? 100_000 : 35_000, playTime: index == 0 ? .under1Day : .under1Hour,
                    customerConsented: index == 0, client: clientName)
            }
            let reason = ["UNINTENDED_PURCHASE", "UNSATISFIED_WITH_PURCHASE", "FULFILLMENT_ISSUE"][index % 3]
            try await simulator.requestRefundAndNotify(transactionId: transactionId, reason: reason)
        }
    }

    /// The players whose deliveries the game never got (see `loseEvents`).
    static let lostPlayers: Set<String> = ["lost_acct_1", "lost_acct_2"]

    /// Dead events to practise on (`:undelivered`, "not told" in the header): two orders
    /// paid four days ago and granted by support then, whose events the game failed the
    /// first time; past the 72 hours the worker keeps trying, each is dead at once. A resend
    /// reaches the game, which applies it. Made once per demo store.
    static func loseEvents(store: OrderStore, simulator: AppStoreSimulator) async throws {
        guard try await store.orders.find("lost_000001") == nil else { return }
        let then = Date().addingTimeInterval(-4 * 86_400)
        let orders = try await SimulatedOrders.seed(store, simulator: simulator, count: 2, sandboxEvery: 0, prefix: "lost", now: then)
        let support = Operator(name: "demo-support", role: .support)
        for id in orders {
            guard let order = try await store.orders.find(id) else { continue }
            try await store.orders.grant(
                orderId: id, expectedVersion: order.version, by: support, reason: "ticket 1203: paid, Apple was timing out",
                at: Millis(then.timeIntervalSince1970 * 1000) + .hours(1))
        }
    }
}
