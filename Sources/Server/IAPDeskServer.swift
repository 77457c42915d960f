import AppStore
import Foundation
import Hummingbird
import Logging
import NIOCore
import OrderStore
import UnixSignals

/// What one `iapdesk serve` process does: the intake API, the worker, or both.
public enum ServeRole: String, Sendable, CaseIterable {
    case all, intake, worker

    var servesHTTP: Bool { self != .worker }
    var runsWorker: Bool { self != .intake }
}

/// `iapdesk serve`: the intake API and Apple's notification receivers on HTTP with
/// `/healthz` and `/readyz`, and the worker, over one store. Several processes may share a PostgreSQL store (jobs are leased).
public final class IAPDeskServer: Sendable {
    /// `http://HOST:PORT`, or nil for a worker-only process.
    public let baseURL: String?
    private let http: Task<Void, any Error>?
    private let worker: Task<Void, Never>?

    private init(baseURL: String?, http: Task<Void, any Error>?, worker: Task<Void, Never>?) {
        self.baseURL = baseURL
        self.http = http
        self.worker = worker
    }

    /// Starts the parts of `role` and returns once the port is bound. With `signals`, a
    /// SIGTERM or SIGINT stops accepting, lets requests in flight finish, then stops the
    /// worker, which gives its leases back.
    public static func start(
        store: OrderStore, verifier: AppleVerifier?, game: GameWebhook? = nil, tokens: ClientTokens, role: ServeRole = .all,
        host: String = "127.0.0.1", port: Int = 8080, workerSettings: Worker.Settings = Worker.Settings(),
        signals: [UnixSignal] = [], logger: Logger = Logger(label: "iapdesk.serve")
    ) async throws -> IAPDeskServer {
        try await store.makeCommitsDurable()
        let metrics = ServeMetrics()
        var workerTask: Task<Void, Never>?
        if role.runsWorker {
            guard let verifier else { throw ServeError.configuration("the worker needs Apple configured ([apple] in iapdesk.toml)") }
            let worker = Worker(store: store, verifier: verifier, game: game, settings: workerSettings, metrics: metrics, logger: logger)
            try await worker.scheduleSweeps()
            logger.info("worker started", metadata: ["owner": "\(worker.owner)"])
            workerTask = Task { await worker.run() }
        }
        guard role.servesHTTP else { return IAPDeskServer(baseURL: nil, http: nil, worker: workerTask) }
        guard !tokens.isEmpty else { throw ServeError.configuration("the intake API needs at least one client token (IAPDESK_CLIENT_TOKENS_FILE)") }

        let router = Router()
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        IntakeRoutes(store: store, tokens: tokens, apple: verifier, metrics: metrics).add(to: router)
        EventRoutes(store: store, tokens: tokens).add(to: router)
        if let verifier {
            NotificationRoutes(
                store: store, decoder: NotificationDecoder(trust: verifier.settings.trust, bundleId: verifier.settings.bundleId),
                metrics: metrics, logger: logger
            ).add(to: router)
        }
        HealthRoutes(store: store, metrics: metrics).add(to: router)
        let (bound, boundContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "iapdesk"),
            onServerRunning: { channel in
                boundContinuation.yield(channel.localAddress?.port ?? port)
                boundContinuation.finish()
            },
            logger: logger)
        let httpTask = Task {
            defer { boundContinuation.finish() }
            try await app.runService(gracefulShutdownSignals: signals)
        }
        var iterator = bound.makeAsyncIterator()
        guard let actual = await iterator.next() else {
            workerTask?.cancel()
            await workerTask?.value
            try await httpTask.value
            throw ServeError.notStarted("nothing listens on \(host):\(port)")
        }
        logger.info("intake listening", metadata: ["address": "\(host):\(actual)"])
        return IAPDeskServer(baseURL: "http://\(host):\(actual)", http: httpTask, worker: workerTask)
    }

    /// Runs until the HTTP server ends (a signal) or, worker-only, until cancelled; then stops the worker.
    public func wait() async throws {
        if let http {
            try await withTaskCancellationHandler {
                try await http.value
            } onCancel: {
                http.cancel()
            }
        } else if let worker {
            await withTaskCancellationHandler {
                await worker.value
            } onCancel: {
                worker.cancel()
            }
        }
        worker?.cancel()
        await worker?.value
    }

    /// Stops accepting and stops the worker (its leases given back).
    public func stop() async {
        http?.cancel()
        _ = try? await http?.value
        worker?.cancel()
        await worker?.value
    }
}

/// `/healthz`: the process answers. `/readyz`: the store answers too, with the job queue.
/// `/metrics`: Prometheus text format.
struct HealthRoutes: Sendable {
    let store: OrderStore
    let metrics: ServeMetrics

    func add(to router: Router<BasicRequestContext>) {
        router.get("/healthz") { _, _ in JSONAnswer.response(.ok, ["status": "ok"]) }
        router.get("/readyz") { _, _ in
            do {
                let queue = try await store.jobQueueStatus()
                return JSONAnswer.response(
                    .ok,
                    [
                        "status": "ready", "jobs_due": queue.due, "oldest_due_at": queue.oldestDueAt,
                        "jobs_leased": queue.leased, "jobs_dead": queue.dead,
                    ])
            } catch {
                return Problem(status: .serviceUnavailable, title: "Not ready", detail: "the order store does not answer").response
            }
        }
        router.get("/openapi.yaml") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: ByteBuffer(bytes: PackageResources.openapi_yaml)))
        }
        router.get("/metrics") { _, _ in
            let text = metrics.render(queue: try? await store.jobQueueStatus())
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"], body: .init(byteBuffer: ByteBuffer(string: text)))
        }
    }
}
