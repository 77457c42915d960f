import AppStore
import AppStoreSimulator
import ArgumentParser
import Foundation
import Logging
import OrderStore
import ReferenceGame
import Server

/// `iapdesk demo`: a seeded store, the App Store simulator in-process with its root trusted,
/// a reference game receiving the store's events, and the console on top as admin, so that
/// every screen works on a fresh machine. A worker runs in-process too, for the game's
/// events and Apple's notifications only: verifying the paid orders is left to the
/// operator, since the stuck queue is the demo's rehearsal.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "demo", abstract: "Open the console on a seeded demo store, with a simulated App Store.")

    @Option(help: "Where to put the demo store (default: a new temp file). Its simulated App Store is kept beside it, in FILE.simulator/, so reopening it re-verifies as before.")
    var db: String?
    @Option(help: "How many synthetic orders.") var orders: Int = 20_000
    @Option(help: "Random seed.") var seed: UInt64 = 1
    @Option(help: "Simulator faults: none, slow, flaky, storm, down, or items (see `iapdesk simulator --help`).") var faults: String = "none"
    @Option(help: "The reference game's fault: none, down, slow, 500 or wrong-secret.") var gameFaults: String = "none"
    @Option(help: "Theme name or .toml path.") var theme: String = "default"
    @Flag(help: "Seed and print where the store is, without opening the console.") var noConsole = false

    func run() async throws {
        let profile: FaultProfile
        do { profile = try FaultProfile.parse(faults) } catch { throw ValidationError("\(error)") }
        guard let gameFault = ReferenceGame.Fault(rawValue: gameFaults) else {
            throw ValidationError("--game-faults is one of \(ReferenceGame.Fault.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let path = db ?? FileManager.default.temporaryDirectory.appendingPathComponent("iapdesk-demo-\(UUID().uuidString.prefix(8)).sqlite").path
        let simulatorFolder = path + ".simulator"
        let store = try await OrderStore.open(StoreLocation(path), settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        let fresh = try await store.counts().total == 0
        let simulator = if !fresh, SavedSimulator.exists(in: simulatorFolder) {
            try await SavedSimulator.load(from: simulatorFolder, faults: profile)
        } else {
            try AppStoreSimulator(bundleId: DemoCatalogue.bundleId, sharedSecret: "demo-shared-secret", faults: profile)
        }
        let server = try await SimulatorServer.start(simulator)
        do {
            if fresh {
                try await SeededPurchases.seed(store, simulator: simulator, orders: orders, seed: seed)
                // Paid orders bought through the simulator itself, one Apple ID each.
                try await SimulatedOrders.seed(store, simulator: simulator, count: 40, prefix: "demo")
                try await SavedSimulator.save(simulator, in: simulatorFolder)
            }
            try await SimulatorFiles.makeAdminIfNew(store)
            let actor = try await store.actor(forUser: OperatorIdentity.osUser)
            let settings = try AppStoreSettings.forSimulator(server, secret: simulator.sharedSecret ?? "")
            if noConsole {
                print("demo store: \(path) (simulator on \(server.baseURL)); open it with: iapdesk demo --db \(path)")
            } else {
                try await AppleVerifier.using(settings) { verifier in
                    try await DemoGame.running(store: store, verifier: verifier, fault: gameFault) {
                        try await ConsoleRunner.run(store: store, actor: actor, theme: theme, storeLabel: "demo \(path)", verifier: verifier,
                                                    trust: simulator.trustRoots)
                    }
                }
            }
        } catch {
            await server.stop()
            await store.close()
            throw error
        }
        await server.stop()
        await store.close()
        // What the session bought or refunded through the simulator is remembered too.
        try await SavedSimulator.save(simulator, in: simulatorFolder)
    }
}

extension AppStoreSettings {
    /// Settings for an in-process simulator: its URLs, its key and its root as the only trust.
    static func forSimulator(_ server: SimulatorServer, secret: String) throws -> AppStoreSettings {
        let simulator = server.simulator
        return AppStoreSettings(
            bundleId: simulator.bundleId, verifyReceipt: .simulator(server.baseURL, sharedSecret: Secret(value: secret, origin: "demo")),
            serverAPI: try ServerAPICredentials(
                issuerId: simulator.apiKey.issuerId, keyId: simulator.apiKey.keyId, p8: Secret(value: simulator.apiKey.p8PEM, origin: "demo"),
                productionURL: server.baseURL, sandboxURL: server.baseURL + "/sandbox"),
            trust: simulator.trustRoots)
    }
}

/// The demo's game: the reference receiver on loopback and a worker pushing the store's
/// events to it (and applying notifications), for as long as the console runs.
enum DemoGame {
    static let secret = "demo-game-webhook-secret"

    static func running(store: OrderStore, verifier: AppleVerifier, fault: ReferenceGame.Fault, _ body: () async throws -> Void) async throws {
        let game = ReferenceGame(secret: secret)
        await game.setFault(fault)
        let receiver = try await ReferenceGameServer.start(game)
        var settings = Worker.Settings()
        settings.kinds = [.sendEvents, .applyNotifications]
        var quiet = Logger(label: "iapdesk.demo.worker")
        quiet.logLevel = .critical  // the console owns the terminal
        let worker = Worker(store: store, verifier: verifier,
                            game: GameWebhook(url: receiver.webhookURL, secrets: [Secret(value: secret, origin: "demo")]),
                            settings: settings, logger: quiet)
        // Events an earlier session of this store left unsent go first.
        try await store.scheduleUnsentEvents()
        let running = Task { await worker.run() }
        func stop() async {
            running.cancel()
            await running.value
            await receiver.stop()
        }
        do {
            try await body()
        } catch {
            await stop()
            throw error
        }
        await stop()
    }
}
