import AppStore
import AppStoreSimulator
import ArgumentParser
import AsyncHTTPClient
import Foundation
import GooglePlaySimulator
import Logging
import NIOCore
import OrderDomain
import OrderStore
import Server
import SyntheticData

/// The pipeline's two figures, through a whole `serve` (intake, receivers, worker) and the
/// store's simulator answering at once (latency 0), over loopback, for either store:
/// - submission → delivered: a game server submits a receipt with `?wait=10` and times the
///   answer that says `delivered` (stored, verified by the worker, granted);
/// - notification acknowledgement: Apple's signed V2 notifications, or Google's Pub/Sub
///   pushes, posted to the receiver, timed to its 2xx (signature checked, stored durably).
/// The clients run in this process, `clients` at a time.
struct PipelineBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pipeline", abstract: "Submission → delivered and notification acknowledgement latency.")

    @OptionGroup var backend: BenchBackend
    @Option(help: "Purchases submitted (each waits for its verdict).") var purchases: Int = 400
    @Option(help: "Notifications posted.") var notifications: Int = 1000
    @Option(help: "Concurrent clients.") var clients: Int = 8
    @Flag(help: "Post the notifications to an intake-only serve (no worker applying them meanwhile), to see what the worker's commits cost.")
    var acksWithoutWorker = false
    @Option(help: "How long the worker's applying waits for a gap in the requests (ms); 0 applies beside them. Default: serve's.")
    var workerYieldMs: Int?
    @Flag(help: "Print JSON.") var json = false
    @Option(help: "Whose purchases and notifications: app-store or google-play (the Google Play simulator, Pub/Sub pushes).")
    var store: BenchStore = .appStore

    static let token = "bench-token-0123456789abcdef"

    func run() async throws {
        let location = try backend.location(name: "pipeline")
        defer { BenchBackend.removeIfTemporary(location) }
        LoggingSystem.bootstrap { _ in SwiftLogNoOpLogHandler() }
        let simulator = try AppStoreSimulator(bundleId: DemoCatalogue.bundleId, sharedSecret: "bench-secret")
        let apple = try await SimulatorServer.start(simulator)
        let play = try GooglePlaySimulator(packageNames: [BenchPlay.package])
        let playServer = try await PlaySimulatorServer.start(play)
        let googlePlay = try BenchPlay.client(
            apiBase: playServer.baseURL, keys: play.keys, tokenURI: playServer.tokenURI, certsURL: playServer.certsURL)
        let store = try await OrderStore.open(location, settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        for product in DemoCatalogue.products { try await store.catalogue.upsert(product) }
        let verifier = AppleVerifier(
            settings: AppStoreSettings(
                bundleId: DemoCatalogue.bundleId, verifyReceipt: .simulator(apple.baseURL, sharedSecret: Secret(value: "bench-secret", origin: "bench")),
                trust: simulator.trustRoots))
        let tokens = ClientTokens([("bench", Self.token)])
        var workerSettings = Worker.Settings()
        if let workerYieldMs { workerSettings.yieldToRequests = .milliseconds(workerYieldMs) }
        var server = try await IAPDeskServer.start(
            store: store, verifier: verifier, googlePlay: googlePlay, tokens: tokens, port: 0, workerSettings: workerSettings)
        guard var url = server.baseURL else { throw ValidationError("serve did not start") }

        // Every player's purchase exists at the store first; the orders are placed.
        var submissions: [(order: String, body: String)] = []
        var applePurchases: [SimulatedPurchase] = []
        var playPurchases: [PlayPurchase] = []
        for index in 0..<purchases {
            _ = try await store.orders.ensure(orderId: "p-\(index)", accountId: "acct-\(index)", productId: "coins_60")
            switch self.store {
            case .appStore:
                let appleId = "bench-\(index)@icloud"
                applePurchases.append(await simulator.ledger.purchase(appleId: appleId, productId: "coins_60", kind: .consumable))
                submissions.append(("p-\(index)", #"{"receipt_data":"\#(try await simulator.ledger.receipt(appleId: appleId))"}"#))
            case .googlePlay:
                let bought = try await play.ledger.buy(packageName: BenchPlay.package, productId: "coins_60", account: "acct-\(index)")
                playPurchases.append(bought)
                submissions.append(("p-\(index)", #"{"google_play":{"package_name":"\#(BenchPlay.package)","purchase_token":"\#(bought.token)"}}"#))
            }
        }
        let delivered = await Self.timed(
            submissions.map { item in
                (
                    url + "/v1/orders/\(item.order)/receipts?wait=10", item.body, Self.token,
                    { (status: Int, body: String) in
                        status == 200 && body.contains(#""state":"delivered""#)
                    }
                )
            }, clients: clients)

        if acksWithoutWorker {
            await server.stop()
            server = try await IAPDeskServer.start(store: store, verifier: verifier, googlePlay: googlePlay, tokens: tokens, role: .intake, port: 0)
            url = server.baseURL ?? url
        }
        // The store tells of the same purchases. Apple: a REFUND_DECLINED each, recorded,
        // nothing taken back. Google: ONE_TIME_PRODUCT_PURCHASED again, each a push of its own
        // (a Pub/Sub message id, a signed token), which has the worker ask Google once more.
        var posts: [(String, String, String?, @Sendable (Int, String) -> Bool)] = []
        let pushToken = try play.keys.pushToken(audience: BenchPlay.audience)
        for index in 0..<notifications {
            switch self.store {
            case .appStore:
                let note = try await simulator.notification("REFUND_DECLINED", about: applePurchases[index % applePurchases.count])
                posts.append((url + "/apple/notifications/production", note.body, nil, { status, _ in (200..<300).contains(status) }))
            case .googlePlay:
                let message = await play.oneTimeMessage(playPurchases[index % playPurchases.count])
                posts.append((url + "/google/notifications", message.body, pushToken, { status, _ in (200..<300).contains(status) }))
            }
        }
        let acknowledged = await Self.timed(posts, clients: clients)
        // What the worker left to apply while acknowledgements went first, and how long it took.
        let drained = acksWithoutWorker ? nil : try await Self.drainTime(store)

        await server.stop()
        await verifier.shutdown()
        await googlePlay.shutdown()
        await apple.stop()
        await playServer.stop()
        await store.close()
        report(
            [
                Figure(key: "delivered_p50_ms", label: "submission → delivered p50 (ms)", value: delivered.samples.p50, budget: nil),
                Figure(key: "delivered_p99_ms", label: "submission → delivered p99 (ms)", value: delivered.samples.p99, budget: nil),
                Figure(key: "not_delivered", label: "submissions not answered delivered", value: Double(delivered.failures), budget: 0),
                Figure(key: "ack_p50_ms", label: "notification acknowledgement p50 (ms)", value: acknowledged.samples.p50, budget: nil),
                Figure(key: "ack_p99_ms", label: "notification acknowledgement p99 (ms)", value: acknowledged.samples.p99, budget: 10),
                Figure(key: "not_acknowledged", label: "notifications not acknowledged", value: Double(acknowledged.failures), budget: 0),
            ] + (drained.map { [Figure(key: "applied_after_ms", label: "every notification applied, after the last ack (ms)", value: $0, budget: nil)] } ?? []),
            json: json,
            context: [
                "backend": backend.backend, "store": self.store.rawValue, "clients": "\(clients)", "purchases": "\(purchases)",
                "notifications": "\(notifications)", "store simulator": "latency 0", "load": "in-process HTTP clients",
                "notifications to": acksWithoutWorker ? "intake only (no worker)" : "the same serve (worker applying them)",
                "worker yields to requests": "\(workerSettings.yieldToRequests)",
            ])
    }

    /// Milliseconds until no job is due or running: the worker has applied every notification.
    static func drainTime(_ store: OrderStore) async throws -> Double {
        let start = ContinuousClock.now
        while true {
            let status = try await store.jobs.status()
            if status.due == 0, status.leased == 0 { return (ContinuousClock.now - start).milliseconds }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Posts each (url, body, token, accepted?) with `clients` in flight; times each answer.
    static func timed(_ requests: [(String, String, String?, @Sendable (Int, String) -> Bool)], clients: Int) async -> (samples: Samples, failures: Int) {
        let queue = WorkQueue(requests.count)
        return await withTaskGroup(of: (Samples, Int).self) { group in
            for _ in 0..<clients {
                group.addTask {
                    var samples = Samples()
                    var failures = 0
                    while let next = await queue.take() {
                        let (url, body, token, accepted) = requests[next]
                        var request = HTTPClientRequest(url: url)
                        request.method = .POST
                        request.headers.add(name: "Content-Type", value: "application/json")
                        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
                        request.body = .bytes(ByteBuffer(string: body))
                        let start = ContinuousClock.now
                        do {
                            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
                            let answer = String(buffer: try await response.body.collect(upTo: 1 << 20))
                            if accepted(Int(response.status.code), answer) {
                                samples.record((ContinuousClock.now - start).milliseconds)
                            } else {
                                failures += 1
                                Self.tell("\(url): HTTP \(response.status.code) \(answer.prefix(300))")
                            }
                        } catch {
                            failures += 1
                            Self.tell("\(url): \(error)")
                        }
                    }
                    return (samples, failures)
                }
            }
            return await Samples.merged(&group)
        }
    }
}

extension PipelineBenchmark {
    /// A request that failed, on standard error: the figures count it, this says why.
    static func tell(_ line: String) {
        FileHandle.standardError.write(Data(("failed: " + line + "\n").utf8))
    }
}

/// Hands out 0..<count once each to the clients.
private actor WorkQueue {
    private var next = 0
    private let count: Int
    init(_ count: Int) { self.count = count }
    func take() -> Int? {
        guard next < count else { return nil }
        defer { next += 1 }
        return next
    }
}
