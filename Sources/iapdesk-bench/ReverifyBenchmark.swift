import AppStore
import AppStoreSimulator
import ArgumentParser
import Foundation
import IAPDeskApp
import OrderDomain
import OrderStore
import Server
import SyntheticData

/// The Performance article's budget for bulk re-verification: of 1,000 orders against the simulator at 500 ms per
/// call with 32 in flight; the ideal is calls × latency / concurrency (15.6 s for one
/// verifyReceipt call per order), the budget 1.25 × that. Real HTTP on loopback, real
/// signed receipts, a real store (SQLite, or PostgreSQL with `--db postgres://…`), the same
/// `reverifyAll` the CLI and console use, or with `--worker` the worker `iapdesk serve` runs,
/// taking the orders' verify jobs from the store's queue under leases.
struct ReverifyBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reverify", abstract: "Bulk re-verification against the simulator.")

    @Option(help: "Orders to re-verify.") var orders: Int = 1000
    @Option(help: "Simulated Apple latency per call, in seconds.") var latency: Double = 0.5
    @Option(
        help:
            "Spread of the latency, in seconds: each call takes latency ± jitter, uniformly. 0 keeps every call at the same latency, so the calls in flight start and finish together."
    )
    var jitter: Double = 0
    @Option(help: "Calls in flight at once.") var concurrency: Int = 32
    @Option(help: "verify-receipt (one call per order) or server-api (three for subscriptions: info, statuses, history).") var api: String = "verify-receipt"
    @Option(help: "The store: a SQLite path (default: a temp file, removed afterwards) or a postgres:// URL of an empty database.") var db: String?
    @Flag(help: "Re-verify through serve's worker: it leases the orders' verify jobs from the queue, `concurrency` at a time.")
    var worker = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        guard api == "verify-receipt" || api == "server-api" else { throw ValidationError("--api is verify-receipt or server-api") }
        let serverAPI = api == "server-api"
        let simulator = try AppStoreSimulator(bundleId: DemoCatalogue.bundleId, sharedSecret: "bench-secret")
        let server = try await SimulatorServer.start(simulator)
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("iapdesk-bench-reverify-\(UUID().uuidString).sqlite").path
        let location = StoreLocation(db ?? temporary)
        let store = try await OrderStore.open(location, settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        defer { if db == nil { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: temporary + suffix) } } }

        // Production purchases only: a sandbox one costs a second call (R2) and would blur the ideal.
        let ids = try await SimulatedOrders.seed(store, simulator: simulator, count: orders, sandboxEvery: 0, claimTransaction: serverAPI)
        let subscriptions = ids.indices.filter { SimulatedOrders.rotation[($0 + 1) % SimulatedOrders.rotation.count] == "vip_monthly" }.count
        let calls = serverAPI ? ids.count + 2 * subscriptions : ids.count
        await simulator.faults.set(FaultProfile(latency: max(0, latency - jitter)...(latency + jitter)))

        var settings = AppStoreSettings(
            bundleId: DemoCatalogue.bundleId, verifyReceipt: .simulator(server.baseURL, sharedSecret: Secret(value: "bench-secret", origin: "bench")),
            serverAPI: serverAPI
                ? try ServerAPICredentials(
                    issuerId: simulator.apiKey.issuerId, keyId: simulator.apiKey.keyId, p8: Secret(value: simulator.apiKey.p8PEM, origin: "bench"),
                    productionURL: server.baseURL, sandboxURL: server.baseURL + "/sandbox")
                : nil,
            trust: simulator.trustRoots)
        settings.maxConnections = max(64, concurrency)
        let verifier = AppleVerifier(settings: settings)

        let start = ContinuousClock.now
        let delivered: Int
        var failures: [String] = []
        if worker {
            delivered = try await throughWorker(store, verifier: verifier)
        } else {
            let result = await store.apple.reverifyAll(ids, using: verifier, concurrency: concurrency)
            delivered = result.delivered
            failures = result.failed.prefix(3).map { "\($0.orderId): \($0.error)" }
        }
        let elapsed = (ContinuousClock.now - start).milliseconds / 1000
        await verifier.shutdown()
        await server.stop()
        await store.close()

        let ideal = Double(calls) * latency / Double(concurrency)
        report(
            [
                Figure(key: "elapsed_s", label: "bulk re-verify (s)", value: elapsed, budget: ideal * 1.25),
                Figure(key: "ideal_s", label: "ideal: calls × latency / concurrency (s)", value: ideal, budget: nil),
                Figure(key: "ratio", label: "elapsed / ideal", value: elapsed / ideal, budget: 1.25),
                Figure(key: "delivered", label: "delivered", value: Double(delivered), budget: nil),
                Figure(key: "not_delivered", label: "not delivered", value: Double(ids.count - delivered), budget: nil),
            ], json: json,
            context: [
                "orders": "\(ids.count)", "calls": "\(calls)", "api": api, "latency_s": "\(latency)", "jitter_s": "\(jitter)", "concurrency": "\(concurrency)",
                "store": location.description, "through": worker ? "worker" : "reverifyAll",
            ])
        if delivered != ids.count {
            throw ValidationError("only \(delivered) of \(ids.count) delivered: \(failures)")
        }
    }

    /// Runs serve's worker on the verify jobs the submissions queued until none is left, and
    /// returns how many orders the store holds delivered.
    private func throughWorker(_ store: OrderStore, verifier: AppleVerifier) async throws -> Int {
        var settings = Worker.Settings()
        settings.kinds = [.verify]
        settings.concurrency = concurrency
        settings.batch = concurrency
        let worker = Worker(store: store, verifier: verifier, settings: settings)
        let running = Task { await worker.work() }
        // Done when no order waits for its first answer and no job is leased (the queue also
        // holds the game's event jobs, which this worker leaves alone).
        while true {
            let waiting = try await store.reports.counts().byState
            let owed = (waiting[.receiptReceived] ?? 0) + (waiting[.verified] ?? 0)
            if owed == 0, try await store.jobs.status().leased == 0 { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        running.cancel()
        await running.value
        return Int(try await store.reports.counts().byState[.delivered] ?? 0)
    }
}
