import AppStoreSimulator
import ArgumentParser
import Foundation
import IAPDeskCLI
import OrderDomain
import OrderStore
import SyntheticData

/// `iapdesk simulator`: the App Store stand-in on loopback, for rehearsing against by hand.
/// It writes what iapdesk needs to trust and call it (its root, an In-App Purchase key, a
/// shared secret) into `--state` and prints the environment to use.
struct SimulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulator", abstract: "Run the App Store simulator on loopback (verifyReceipt, Server API, test controls).")

    @Option(help: "Port (0 picks a free one).") var port: Int = 9090
    @Option(help: "Address to listen on; keep it loopback.") var host: String = "127.0.0.1"
    @Option(help: "The app's bundle id.") var bundleId: String = DemoCatalogue.bundleId
    @Option(help: "Faults: none, slow, flaky, storm, down, or items like latency=0.5,21005:0.3,http503:0.1,timeout:0.05.")
    var faults: String = "none"
    @Option(help: "Folder for the root certificate, the API key and the shared secret (default: a new temp folder).")
    var state: String?
    @Option(help: "Also seed this store with paid orders whose receipts the simulator signed.") var seedStore: String?
    @Option(help: "How many orders --seed-store adds.") var orders: Int = 20
    @Option(
        help: """
            Where production notifications (App Store Server Notifications V2) are posted, e.g. \
            http://127.0.0.1:8080/apple/notifications/production. Retried on Apple's schedule \
            (1, 12, 24, 48, 72 hours) until one is answered 2xx.
            """)
    var notifyURL: String?
    @Option(help: "Where sandbox notifications are posted (sandbox does not retry, as at Apple).") var notifySandboxURL: String?

    func run() async throws {
        let profile: FaultProfile
        do { profile = try FaultProfile.parse(faults) } catch { throw ValidationError("\(error)") }
        let secret = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        let simulator = try AppStoreSimulator(bundleId: bundleId, sharedSecret: secret, faults: profile)
        let folder = try SimulatorFiles.write(simulator, into: state)
        for url in [notifyURL, notifySandboxURL].compactMap({ $0 }) {
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil else {
                throw ValidationError("\(url) is not an http(s) URL")
            }
        }
        await simulator.notifications.configure(production: notifyURL, sandbox: notifySandboxURL)
        let server = try await SimulatorServer.start(simulator, host: host, port: port)
        print(
            """
            App Store simulator on \(server.baseURL) (bundle \(bundleId), faults \(profile))
              trust root:  \(folder.roots)/root.pem
              API key:     \(folder.key) (key id \(simulator.apiKey.keyId))
              notifies:    \(notifyURL ?? "nothing (--notify-url)") · sandbox: \(notifySandboxURL ?? "nothing (--notify-sandbox-url)")
              controls:    POST \(server.baseURL)/control/purchase {"appleId":"a@b","productId":"coins_60"}
                           (answers with the purchase's ids and its StoreKit 2 signedTransaction)
                           GET  \(server.baseURL)/control (every control) · GET \(server.baseURL)/control/products
                           GET  \(server.baseURL)/control/receipt?appleId=a@b · PUT \(server.baseURL)/control/faults {"profile":"storm"}

            Point iapdesk at it:
              export IAPDESK_APPLE_SIMULATOR=\(server.baseURL) IAPDESK_TRUST_ROOTS=\(folder.roots) \\
                     IAPDESK_SHARED_SECRET_FILE=\(folder.secret) IAPDESK_KEY_FILE=\(folder.key) \\
                     IAPDESK_KEY_ID=\(simulator.apiKey.keyId) IAPDESK_ISSUER_ID=\(simulator.apiKey.issuerId) IAPDESK_BUNDLE_ID=\(bundleId)
            """)
        if let seedStore {
            let store = try await OrderStore.open(StoreLocation(seedStore), settings: StoreSettings(bundleId: bundleId))
            do {
                try await SimulatorFiles.makeAdminIfNew(store)
                let ids = try await SimulatedOrders.seed(store, simulator: simulator, count: orders)
                await store.close()
                print(
                    """

                    seeded \(ids.count) paid orders into \(seedStore) (\(ids.first ?? "")…\(ids.last ?? "")); try:
                      IAPDESK_DB=\(seedStore) iapdesk order reverify \(ids.first ?? "")
                    """)
            } catch {
                await store.close()
                throw error
            }
        }
        print("\nCtrl-C stops it.")
        fflush(nil)  // the instructions must show even when stdout is a file or a pipe
        try await server.wait()
    }
}

/// The files `iapdesk simulator` hands to whoever configures iapdesk against it.
enum SimulatorFiles {
    struct Paths {
        var roots: String
        var key: String
        var secret: String
    }

    static func write(_ simulator: AppStoreSimulator, into folder: String?) throws -> Paths {
        let base = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("iapdesk-simulator-\(UUID().uuidString.prefix(8))").path
        let roots = base + "/roots"
        try FileManager.default.createDirectory(atPath: roots, withIntermediateDirectories: true)
        let paths = Paths(roots: roots, key: "\(base)/SubscriptionKey_\(simulator.apiKey.keyId).p8", secret: base + "/shared-secret")
        try Data(try simulator.authority.rootPEM().utf8).write(to: URL(fileURLWithPath: roots + "/root.pem"))
        // Secrets readable by the owner only, like the real ones should be.
        for (path, content) in [(paths.key, simulator.apiKey.p8PEM), (paths.secret, simulator.sharedSecret ?? "")] {
            try OwnerOnlyFile.write(content, to: path)
        }
        return paths
    }

    /// A new store gets the OS user as its first admin, as `iapdesk demo` does.
    static func makeAdminIfNew(_ store: OrderStore) async throws {
        let user = OperatorIdentity.current
        if try await store.operators.role(of: user) == .viewer {
            try await store.operators.add(name: user, role: .admin, by: Operator(name: user, role: .admin))
        }
    }
}
