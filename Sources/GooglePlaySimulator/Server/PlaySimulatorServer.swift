import Foundation
import Hummingbird
import Logging
import NIOCore

/// The Google Play simulator on loopback HTTP, in-process for the demo and tests (port 0:
/// the system picks a free one).
///
/// Routes:
/// - `POST /token`: the OAuth token endpoint (JWT bearer grant of the service account);
/// - `GET /certs`: the push tokens' signing certificates by key id;
/// - `/androidpublisher/v3/applications/{packageName}/…`: the purchases, voided purchases
///   and orders endpoints (Bearer token required);
/// - `/control/…`: the test controls (see `PlayControlRoutes`).
public final class PlaySimulatorServer: Sendable {
    public let simulator: GooglePlaySimulator
    /// `http://127.0.0.1:PORT`
    public let baseURL: String
    public let port: Int
    private let task: Task<Void, any Error>

    private init(simulator: GooglePlaySimulator, port: Int, host: String, task: Task<Void, any Error>) {
        self.simulator = simulator
        self.port = port
        baseURL = "http://\(host):\(port)"
        self.task = task
    }

    /// The token endpoint to write into the service account's key file.
    public var tokenURI: String { baseURL + "/token" }
    /// Where push tokens' certificates are published.
    public var certsURL: String { baseURL + "/certs" }

    /// Starts serving and returns once the port is bound.
    public static func start(_ simulator: GooglePlaySimulator, host: String = "127.0.0.1", port: Int = 0) async throws -> PlaySimulatorServer {
        let router = Router()
        TokenRoutes(simulator: simulator).add(to: router)
        PublisherRoutes(simulator: simulator).add(to: router)
        PlayControlRoutes(simulator: simulator).add(to: router)
        let (bound, boundContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "iapdesk-play-simulator"),
            onServerRunning: { channel in
                boundContinuation.yield(channel.localAddress?.port ?? port)
                boundContinuation.finish()
            },
            logger: .init(label: "iapdesk.play-simulator", factory: { _ in SwiftLogNoOpLogHandler() }))
        let task = Task {
            defer { boundContinuation.finish() }
            try await app.runService(gracefulShutdownSignals: [])
        }
        var iterator = bound.makeAsyncIterator()
        guard let actual = await iterator.next() else {
            try await task.value
            throw PlaySimulatorServerError.notStarted(host: host, port: port)
        }
        return PlaySimulatorServer(simulator: simulator, port: actual, host: host, task: task)
    }

    /// Runs until the task that called it is cancelled (for `iapdesk play-simulator`).
    public func wait() async throws {
        try await withTaskCancellationHandler {
            try await task.value
        } onCancel: { [task] in
            task.cancel()
        }
    }

    public func stop() async {
        await simulator.notifications.stop()
        task.cancel()
        _ = try? await task.value
    }
}

public enum PlaySimulatorServerError: Error, CustomStringConvertible {
    case notStarted(host: String, port: Int)
    public var description: String {
        switch self {
        case .notStarted(let host, let port): "the Google Play simulator could not listen on \(host):\(port)"
        }
    }
}
