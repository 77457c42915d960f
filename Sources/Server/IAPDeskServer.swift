import AppStore
import Foundation
import GooglePlay
import Hummingbird
import Logging
import NIOCore
import OrderDomain
import OrderStore
import ServiceLifecycle
import UnixSignals

/// What one `iapdesk serve` process does: the intake API, the worker, or both.
public enum ServeRole: String, Sendable, CaseIterable {
    case all, intake, worker

    var servesHTTP: Bool { self != .worker }
    var runsWorker: Bool { self != .intake }
}

/// `iapdesk serve`: the intake API and the stores' notification receivers on HTTP with
/// `/healthz` and `/readyz`, and the worker, over one store. Several processes may share a
/// PostgreSQL store (jobs are leased).
///
/// The parts are services of one swift-service-lifecycle `ServiceGroup`: the store's
/// watch (``StoreWatch``), the worker and the HTTP server. A stop (SIGTERM, SIGINT or
/// ``stop()``) shuts them down in reverse: the HTTP server stops accepting and finishes
/// the requests in flight, the worker finishes its jobs in flight and gives its leases
/// back, and the store's connections close last. Every database call and every call to
/// Apple has a deadline, so a stop ends even while either is down; past `grace` the group
/// cancels what is left.
public final class IAPDeskServer: Sendable {
    /// `http://HOST:PORT`, or nil for a worker-only process.
    public let baseURL: String?
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    private init(baseURL: String?, group: ServiceGroup, running: Task<Void, any Error>) {
        self.baseURL = baseURL
        self.group = group
        self.running = running
    }

    /// Starts the parts of `role` and returns once the port is bound. With `signals`, a
    /// SIGTERM or SIGINT stops the server gracefully, within `grace`.
    public static func start(
        store: OrderStore, verifier: AppleVerifier?, googlePlay: PlayClient? = nil, game: GameWebhook? = nil, tokens: ClientTokens, role: ServeRole = .all,
        host: String = "127.0.0.1", port: Int = 8080, workerSettings: Worker.Settings = Worker.Settings(),
        signals: [UnixSignal] = [], grace: Duration = .seconds(30), logger: Logger = Logger(label: "iapdesk.serve")
    ) async throws -> IAPDeskServer {
        try await store.makeCommitsDurable()
        let metrics = ServeMetrics()
        var services: [any Service] = [StoreWatch(store: store, logger: logger)]
        // What the worker yields to when it shares this process with the HTTP server.
        let requests = RequestsInFlight()
        if role.runsWorker {
            guard verifier != nil || googlePlay != nil else {
                throw ServeError.configuration("the worker needs a store configured ([apple] or [google_play] in iapdesk.toml)")
            }
            let worker = Worker(
                store: store, verifier: verifier, googlePlay: googlePlay, game: game, settings: workerSettings, metrics: metrics, logger: logger,
                yieldingTo: role.servesHTTP ? requests : nil)
            try await worker.scheduleSweeps()
            logger.info("worker started", metadata: ["owner": "\(worker.owner)"])
            services.append(worker)
        }
        let (bound, boundContinuation) = AsyncStream.makeStream(of: Int.self)
        if role.servesHTTP {
            guard !tokens.isEmpty else { throw ServeError.configuration("the intake API needs at least one client token (IAPDESK_CLIENT_TOKENS_FILE)") }
            let router = Router(context: ServeContext.self)
            router.add(middleware: MetricsMiddleware(metrics: metrics))
            // Counted only where a worker in this process reads the count.
            if role.runsWorker { router.add(middleware: RequestsInFlight.Counting(requests: requests)) }
            router.add(middleware: RequestDeadline(deadline: store.settings.databaseDeadline))
            router.add(middleware: ProblemAnswers())
            IntakeRoutes(store: store, tokens: tokens, apple: verifier, playPackages: googlePlay?.settings.packageNames ?? [], metrics: metrics)
                .add(to: router)
            EventRoutes(store: store, tokens: tokens).add(to: router)
            if let verifier {
                NotificationRoutes(
                    store: store, decoder: NotificationDecoder(trust: verifier.settings.trust, bundleIds: store.settings.apps),
                    metrics: metrics, logger: logger
                ).add(to: router)
            }
            if let googlePlay {
                PlayNotificationRoutes(
                    store: store, verifier: PushTokenVerifier(client: googlePlay), packageNames: googlePlay.settings.packageNames, metrics: metrics,
                    logger: logger
                ).add(to: router)
            }
            HealthRoutes(store: store, metrics: metrics).add(to: router)
            services.append(
                Application(
                    router: router,
                    configuration: .init(address: .hostname(host, port: port), serverName: "iapdesk"),
                    onServerRunning: { channel in
                        boundContinuation.yield(channel.localAddress?.port ?? port)
                        boundContinuation.finish()
                    },
                    logger: logger))
        } else {
            boundContinuation.finish()
        }
        var configuration = ServiceGroupConfiguration(
            services: services.map {
                .init(service: $0, successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup)
            },
            gracefulShutdownSignals: signals, cancellationSignals: [], logger: logger)
        configuration.maximumGracefulShutdownDuration = grace
        let group = ServiceGroup(configuration: configuration)
        let running = Task {
            defer { boundContinuation.finish() }
            try await group.run()
        }
        guard role.servesHTTP else { return IAPDeskServer(baseURL: nil, group: group, running: running) }
        var iterator = bound.makeAsyncIterator()
        guard let actual = await iterator.next() else {
            await group.triggerGracefulShutdown()
            try await running.value
            throw ServeError.notStarted("nothing listens on \(host):\(port)")
        }
        logger.info("intake listening", metadata: ["address": "\(host):\(actual)"])
        return IAPDeskServer(baseURL: "http://\(host):\(actual)", group: group, running: running)
    }

    /// Runs until a signal stops the group (or, when the caller is cancelled, stops it).
    public func wait() async throws {
        try await withTaskCancellationHandler {
            try await running.value
        } onCancel: { [group] in
            Task { await group.triggerGracefulShutdown() }
        }
    }

    /// Stops gracefully: no new requests, requests and jobs in flight finished, leases given back.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await running.value
    }
}

extension Worker: Service {
    /// As a service: a graceful shutdown stops claiming, finishes the jobs in flight and
    /// gives the leases back (`run()` on cancellation).
    public func run() async throws {
        await cancelWhenGracefulShutdown { await self.work() }
    }
}
