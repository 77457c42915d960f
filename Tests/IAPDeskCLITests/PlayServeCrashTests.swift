import Foundation
import GooglePlaySimulator
import OrderDomain
import OrderStore
import SyntheticData
import TestSupport
import Testing

@testable import IAPDeskApp
@testable import IAPDeskCLI

/// `iapdesk serve` configured for Google Play (`[google_play]`, as a studio writes it),
/// killed with SIGKILL while a game server submits Play purchase tokens and Google's
/// simulator pushes real-time developer notifications: every 202 and every 2xx push is in
/// the store, the audit chain verifies, and once a last `serve` has run each submitted
/// purchase is granted exactly once and acknowledged at Google.
@Suite("serve with Google Play: kill -9 under load", .serialized, .needsBinary, .takesTurns)
struct PlayServeCrashTests {
    static let audience = "https://iapdesk.test/google/notifications"

    /// The Apple crash test's store and files, plus a Play simulator and `[google_play]`.
    struct PlaySetup {
        var base: ServeCrashTests.Setup
        var play: GooglePlaySimulator
        var playServer: PlaySimulatorServer

        static func make(_ backend: Backend) async throws -> PlaySetup {
            let base = try await ServeCrashTests.Setup.make(backend)
            let play = try GooglePlaySimulator(packageNames: [DemoCatalogue.bundleId], keys: try await SharedPlayKeys.get())
            let playServer = try await PlaySimulatorServer.start(play)
            let keyFile = base.folder + "/play-service-account.json"
            try JSONSerialization.data(withJSONObject: play.keys.serviceAccountFile(tokenURI: playServer.tokenURI)).write(to: URL(fileURLWithPath: keyFile))
            let section = """

                [google_play]
                package_names = ["\(DemoCatalogue.bundleId)"]
                service_account_key_file = "\(keyFile)"
                push_audience = "\(audience)"
                push_service_account_email = "\(play.keys.pushServiceAccountEmail)"
                simulator = "\(playServer.baseURL)"
                timeout_seconds = 5

                """
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: base.config))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(section.utf8))
            try handle.close()
            return PlaySetup(base: base, play: play, playServer: playServer)
        }

        func tearDown() async {
            await play.notifications.stop()
            await playServer.stop()
            await base.tearDown()
        }
    }

    @Test(
        "kill -9 under Play load, round after round: every 202 and every 2xx push is in the store; the audit chain verifies; each submitted purchase is granted once and acknowledged at Google",
        arguments: Backend.all)
    func killUnderPlayLoad(backend: Backend) async throws {
        let binary = try Machine.requireBinary()
        let rounds = Int(ProcessInfo.processInfo.environment["IAPDESK_CRASH_ROUNDS"] ?? "") ?? 8
        let setup = try await PlaySetup.make(backend)
        let play = setup.play
        let acknowledged = ServeCrashTests.Acknowledged()
        var random = SystemRandomNumberGenerator()
        let started = ContinuousClock.now
        for round in 0..<rounds {
            // Bought before the process starts (the game server learns of them from the
            // player's device); Google's pushes about other purchases arrive meanwhile.
            var work: [(order: String, token: String)] = []
            for client in 0..<16 {
                let order = "gk\(round)-\(client)"
                let bought = try await play.ledger.buy(packageName: DemoCatalogue.bundleId, productId: "coins_60", account: "acct-\(order)")
                work.append((order, bought.token))
            }
            let serve = try await ServeProcess.start(binary, config: setup.base.config, tokens: setup.base.tokens, arguments: ServeCrashTests.serveArguments)
            let url = try #require(serve.baseURL)
            // One attempt per push: whether Google's push was answered 2xx is then final.
            await play.notifications.configure(url: url + "/google/notifications", audience: Self.audience, retryDelays: [])
            _ = await serve.call(.GET, "/readyz", json: nil, token: nil)
            let load = work
            var calls: [@Sendable () async -> Void] = load.map { order, token in
                {
                    guard
                        let placed = await serve.call(
                            .POST, "/v1/orders", json: #"{"order_id":"\#(order)","account_id":"acct-\#(order)","product_id":"coins_60"}"#,
                            token: ServeCrashTests.token),
                        placed.status == 201 || placed.status == 200
                    else { return }
                    let purchase = #"{"google_play":{"package_name":"\#(DemoCatalogue.bundleId)","purchase_token":"\#(token)"}}"#
                    if let answer = await serve.call(.POST, "/v1/orders/\(order)/receipts", json: purchase, token: ServeCrashTests.token),
                        answer.status == 202, let id = answer.body["submission_id"] as? Int
                    {
                        await acknowledged.submitted(order, id)
                    }
                }
            }
            for push in 0..<4 {
                calls.append { _ = try? await play.purchaseAndNotify(productId: "coins_300", account: "pushed-\(round)-\(push)") }
            }
            await ServeCrashTests.killWhileLoaded(serve, underLoad: backend, random: &random, acknowledged: acknowledged, calls)
        }
        await play.notifications.configure(url: nil)
        let submissions = await acknowledged.submissions
        let pushes = await play.notifications.entries.filter(\.acknowledged).map { "play:\($0.message.messageId)" }
        print(
            "Play kill -9 on \(backend): \(rounds) rounds in \(ContinuousClock.now - started), \(submissions.count) submissions and \(pushes.count) pushes acknowledged"
        )
        #expect(submissions.count >= rounds / 2, "the load reached the server: \(submissions.count) acknowledged submissions")

        var store = try await setup.base.open()
        for (order, id) in submissions {
            let stored = try await store.orders.detail(order).submissions.map(\.id)
            #expect(stored.contains(Int64(id)), "submission \(id) of \(order) got a 202 and is in the store")
        }
        let storedUUIDs = Set(try await store.notifications.list(limit: 10_000).compactMap(\.facts.uuid))
        #expect(pushes.allSatisfy(storedUUIDs.contains), "every push answered 2xx is stored: \(pushes.filter { !storedUUIDs.contains($0) })")
        #expect(try await store.audit.verify() == .intact(entries: try await store.audit.entries(limit: 1).first?.seq ?? 0))
        await store.close()

        store = try await setup.base.drained(binary, within: 90)
        for order in Set(submissions.map(\.order)) {
            let detail = try await store.orders.detail(order)
            #expect(detail.order.state == .delivered, "\(order) is \(detail.order.state.rawValue): \(detail.order.lastError ?? "")")
            #expect(detail.grants.count == 1, "\(order) granted \(detail.grants.count) times")
            #expect(try await store.outbox.events(orderId: order).count == 1, "\(order): one event to the game")
            let submitted = try #require(detail.submissions.first)
            #expect(submitted.kind == .googlePlay, "the intake kept what it received")
            let token = try PlaySubmission(storedText: submitted.receiptData).purchaseToken
            #expect(await play.ledger.purchase(token: token)?.acknowledged == true, "\(order)'s purchase is acknowledged at Google")
        }
        await store.close()
        await setup.tearDown()
    }
}
