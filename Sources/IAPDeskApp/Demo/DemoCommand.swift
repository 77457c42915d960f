import AppStore
import AppStoreSimulator
import ArgumentParser
import Console
import Foundation
import GooglePlay
import GooglePlaySimulator
import IAPDeskCLI
import OrderDomain
import OrderStore
import ReferenceGame
import SyntheticData

/// `iapdesk demo`: a seeded store, the App Store simulator in-process with its root trusted,
/// `serve` and a reference game on loopback (`DemoServe`), and the console on top as admin,
/// so that every screen works on a fresh machine and shows live data.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Open the console on a seeded demo store, with a simulated App Store and Google Play.")

    @Option(
        help:
            "Where to put the demo store: a SQLite file (default: a new temp file) or a postgres:// URL. Its simulated App Store and Google Play are kept beside a file, in FILE.simulator/ (a database's in the temporary directory), so reopening it re-verifies as before."
    )
    var db: String?
    @Option(help: "How many synthetic orders.") var orders: Int = 20_000
    @Option(help: "Random seed.") var seed: UInt64 = 1
    @Option(help: "Simulator faults: none, slow, flaky, storm, down, or items (see `iapdesk simulator --help`).") var faults: String = "none"
    @Option(help: "The reference game's fault: none, down, slow, 500, wrong-secret or verbose (a 64 KB answer).") var gameFaults: String = "none"
    @Option(help: "Theme name or .toml path.") var theme: String = "default"
    @Option(help: "Where the in-process `serve` listens (HOST:PORT; port 0 picks a free one). The URLs are in `?` and in FILE.simulator/endpoints.txt.")
    var listen = ListenAddress(host: "127.0.0.1", port: 0)
    @Flag(help: "Seed and print where the store is, without opening the console.") var noConsole = false
    @Option(
        help: ArgumentHelp(
            "Build the store each SSH visitor gets a copy of (`iapdesk demo-session --template DIR`) in DIR, a new folder, and exit.",
            valueName: "DIR"))
    var buildTemplate: String?
    @OptionGroup var visitor: VisitorLimits

    func validate() throws {
        if buildTemplate != nil, db != nil || noConsole {
            throw ValidationError("--build-template makes its own store in DIR: drop --db and --no-console")
        }
        if visitor.seconds != nil, case .postgres = StoreLocation(db ?? "") {
            throw ValidationError("a visit runs on its own copy of a demo template, a SQLite file")
        }
    }

    func run() async throws {
        let profile: FaultProfile
        do { profile = try FaultProfile.parse(faults) } catch { throw ValidationError("\(error)") }
        guard let gameFault = ReferenceGame.Fault(rawValue: gameFaults) else {
            throw ValidationError("--game-faults is one of \(ReferenceGame.Fault.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let buildTemplate { try DemoTemplate.prepare(buildTemplate) }
        let visit = visitor.visit
        if visit != nil {
            try visitor.apply()
            DemoTemplate.endWithParent()
        }
        let path =
            buildTemplate.map(DemoTemplate.storePath) ?? db
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("iapdesk-demo-\(UUID().uuidString.prefix(8)).sqlite").path
        let simulatorFolder = Self.simulatorFolder(for: path)
        var settings = StoreSettings(bundleId: DemoCatalogue.bundleId)
        // The demo game sells in both stores under one id, as many studios' games do.
        settings.playApps = [DemoCatalogue.bundleId]
        let store = try await OrderStore.open(StoreLocation(path), settings: settings)
        let fresh = try await store.reports.counts().total == 0
        let simulator =
            if !fresh, SavedSimulator.exists(in: simulatorFolder) {
                try await SavedSimulator.load(from: simulatorFolder, faults: profile)
            } else {
                try AppStoreSimulator(bundleId: DemoCatalogue.bundleId, sharedSecret: "demo-shared-secret", faults: profile)
            }
        let server = try await SimulatorServer.start(simulator)
        // Google Play beside Apple: its simulator, and the client serve and the console ask it with.
        let play: (server: PlaySimulatorServer, client: PlayClient)
        do {
            let playSimulator = try GooglePlaySimulator(packageNames: [DemoCatalogue.bundleId])
            if !fresh { try await SavedPlayLedger.restore(playSimulator, from: simulatorFolder) }
            let playServer = try await PlaySimulatorServer.start(playSimulator)
            play = (playServer, PlayClient(settings: try PlaySettings.forSimulator(playServer)))
        } catch {
            await server.stop()
            await store.close()
            throw error
        }
        var tickets: [DemoAppleTickets.Ticket] = []
        do {
            if fresh {
                try await SeededPurchases.seed(store, simulator: simulator, orders: orders, seed: seed)
                // The synthetic history as lived: the game was told of each delivery then.
                try await store.outbox.recordConfirmedHistory()
                // Paid orders bought through the simulator itself, one Apple ID each.
                try await SimulatedOrders.seed(store, simulator: simulator, count: 40, prefix: "demo")
                tickets = try await AppleVerifier.using(try AppStoreSettings.forSimulator(server, secret: simulator.sharedSecret ?? "")) { verifier in
                    try await DemoAppleTickets.seed(store, simulator: simulator, verifier: verifier)
                }
                tickets += try await DemoPlayTickets.seed(store, simulator: play.server.simulator, client: play.client)
                try await SavedPlayLedger.save(play.server.simulator, in: simulatorFolder)
                try await SavedSimulator.save(simulator, in: simulatorFolder)
            }
            // Seeded without faults (the tickets need Google's answers); `--faults` from here on.
            await play.server.simulator.faults.set(profile)
            if visit != nil { try await DemoTemplate.admitVisitor(store) } else { try await SimulatorFiles.makeAdminIfNew(store) }
            let actor = try await store.operators.actor(forUser: OperatorIdentity.current)
            let settings = try AppStoreSettings.forSimulator(server, secret: simulator.sharedSecret ?? "")
            if noConsole {
                print("demo store: \(path) (simulator on \(server.baseURL)); open it with: iapdesk demo --db \(path)")
            } else {
                try await AppleVerifier.using(settings) { verifier in
                    try await DemoServe.running(
                        store: store, verifier: verifier, simulator: server, play: play, gameFault: gameFault,
                        host: visit == nil ? listen.host : "127.0.0.1", port: visit == nil ? listen.port : 0
                    ) { endpoints in
                        if buildTemplate != nil { return try await DemoTemplate.settle(store) }
                        try OwnerOnlyFile.write(endpoints.text(storePath: path), to: simulatorFolder + "/endpoints.txt")
                        try await ConsoleRunner.run(
                            store: store, actor: actor, theme: theme, storeLabel: visit == nil ? "demo \(path)" : "a demo of your own",
                            verifier: MarketplaceVerifier(apple: verifier, googlePlay: PlayVerifier(client: play.client)),
                            appleActions: verifier.serverAPI, playActions: play.client, trust: simulator.trustRoots,
                            notes: visit == nil ? endpoints.helpLines + tickets.map { ($0.name, $0.text) } : DemoTemplate.visitorNotes, visit: visit)
                    }
                }
            }
        } catch {
            await play.client.shutdown()
            await play.server.stop()
            await server.stop()
            await store.close()
            throw error
        }
        await play.client.shutdown()
        await play.server.stop()
        await server.stop()
        await store.close()
        // What the session bought or refunded through the simulator is remembered too
        // (not a visitor's: their copy is deleted as they leave).
        if visit == nil {
            try await SavedSimulator.save(simulator, in: simulatorFolder)
            try await SavedPlayLedger.save(play.server.simulator, in: simulatorFolder)
        }
        if let buildTemplate {
            try DemoTemplate.seal(buildTemplate)
            print("demo template: \(buildTemplate) (\(orders) orders); each visitor gets a copy: iapdesk demo-session --template \(buildTemplate)")
        }
    }

    /// Where the simulators' state is kept, so that reopening the demo store re-verifies as
    /// before: FILE.simulator/ beside a SQLite file; for a PostgreSQL database, a folder in the
    /// temporary directory named after its host, port and database (never its password).
    static func simulatorFolder(for path: String) -> String {
        guard case .postgres = StoreLocation(path), let url = URL(string: path) else { return path + ".simulator" }
        let name = [url.host ?? "localhost", url.port.map(String.init) ?? "5432", url.path]
            .joined(separator: "-").map { $0.isLetter || $0.isNumber ? $0 : "-" }
        return FileManager.default.temporaryDirectory.appendingPathComponent("iapdesk-demo-postgres-\(String(name)).simulator").path
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
