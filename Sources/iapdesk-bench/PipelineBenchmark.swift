import AppStore
import AppStoreSimulator
import ArgumentParser
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import OrderStore
import Server
import SyntheticData

/// Issue 13's other two figures, through a whole `serve` (intake, receivers, worker) and the
/// App Store simulator answering at once (latency 0), over loopback:
/// - submission → delivered: a game server submits a receipt with `?wait=10` and times the
///   answer that says `delivered` (stored, verified by the worker, granted);
/// - notification acknowledgement: Apple's signed V2 notifications posted to the receiver,
///   timed to its 2xx (signature and chain checked, stored durably).
/// The clients run in this process, `clients` at a time.
struct PipelineBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pipeline", abstract: "Submission → delivered and notification acknowledgement latency.")

    @OptionGroup var backend: BenchBackend
    @Option(help: "Purchases submitted (each waits for its verdict).") var purchases: Int = 400
    @Option(help: "Notifications posted.") var notifications: Int = 1000
    @Option(help: "Concurrent clients.") var clients: Int = 8
    @Flag(help: "Post the notifications to an intake-only serve (no worker applying them meanwhile), to see what the worker's commits cost.")
    var acksWithoutWorker = false
    @Flag(help: "Print JSON.") var json = false

    static let token = "bench-token-0123456789abcdef"

    func run() async throws {
        let location = try backend.location(name: "pipeline")
        defer { BenchBackend.removeIfTemporary(location) }
        LoggingSystem.bootstrap { _ in SwiftLogNoOpLogHandler() }
        let simulator = try AppStoreSimulator(bundleId: DemoCatalogue.bundleId, sharedSecret: "bench-secret")
        let apple = try await SimulatorServer.start(simulator)
        let store = try await OrderStore.open(location, settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        for product in DemoCatalogue.products { try await store.catalogue.upsert(product) }
        let verifier = AppleVerifier(
            settings: AppStoreSettings(
                bundleId: DemoCatalogue.bundleId, verifyReceipt: .simulator(apple.baseURL, sharedSecret: Secret(value: "bench-secret", origin: "bench")),
                trust: simulator.trustRoots))
        var server = try await IAPDeskServer.start(store: store, verifier: verifier, tokens: ClientTokens([("bench", Self.token)]), port: 0)
        guard var url = server.baseURL else { throw ValidationError("serve did not start") }

        // Every player's purchase and receipt exist at Apple first; the orders are placed.
        var submissions: [(order: String, body: String)] = []
        var purchased: [SimulatedPurchase] = []
        for index in 0..<purchases {
            let appleId = "bench-\(index)@icloud"
            purchased.append(await simulator.ledger.purchase(appleId: appleId, productId: "coins_60", kind: .consumable))
            let receipt = try await simulator.ledger.receipt(appleId: appleId)
            _ = try await store.orders.ensure(orderId: "p-\(index)", accountId: "acct-\(index)", productId: "coins_60")
            submissions.append(("p-\(index)", #"{"receipt_data":"\#(receipt)"}"#))
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
            server = try await IAPDeskServer.start(store: store, verifier: verifier, tokens: ClientTokens([("bench", Self.token)]), role: .intake, port: 0)
            url = server.baseURL ?? url
        }
        // Apple tells of the same purchases: a REFUND_DECLINED each, recorded, nothing taken back.
        var posts: [(String, String, String?, @Sendable (Int, String) -> Bool)] = []
        for index in 0..<notifications {
            let note = try await simulator.notification("REFUND_DECLINED", about: purchased[index % purchased.count])
            posts.append((url + "/apple/notifications/production", note.body, nil, { status, _ in (200..<300).contains(status) }))
        }
        let acknowledged = await Self.timed(posts, clients: clients)

        await server.stop()
        await verifier.shutdown()
        await apple.stop()
        await store.close()
        report(
            [
                Figure(key: "delivered_p50_ms", label: "submission → delivered p50 (ms)", value: delivered.samples.p50, budget: nil),
                Figure(key: "delivered_p99_ms", label: "submission → delivered p99 (ms)", value: delivered.samples.p99, budget: nil),
                Figure(key: "not_delivered", label: "submissions not answered delivered", value: Double(delivered.failures), budget: 0),
                Figure(key: "ack_p50_ms", label: "notification acknowledgement p50 (ms)", value: acknowledged.samples.p50, budget: nil),
                Figure(key: "ack_p99_ms", label: "notification acknowledgement p99 (ms)", value: acknowledged.samples.p99, budget: 10),
                Figure(key: "not_acknowledged", label: "notifications not acknowledged", value: Double(acknowledged.failures), budget: 0),
            ], json: json,
            context: [
                "backend": backend.backend, "clients": "\(clients)", "purchases": "\(purchases)", "notifications": "\(notifications)",
                "apple": "simulator, latency 0", "load": "in-process HTTP clients",
                "notifications to": acksWithoutWorker ? "intake only (no worker)" : "the same serve (worker applying them)",
            ])
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
                            if accepted(Int(response.status.code), answer) { samples.record((ContinuousClock.now - start).milliseconds) } else { failures += 1 }
                        } catch {
                            failures += 1
                        }
                    }
                    return (samples, failures)
                }
            }
            return await Samples.merged(&group)
        }
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
