import Foundation
import Hummingbird
import Logging
import NIOCore

/// The simulator on loopback HTTP: `iapdesk simulator --port P`, or in-process for the demo
/// and tests with port 0 (the system picks a free one).
///
/// Routes, with `/sandbox` in front for Apple's sandbox hosts:
/// - `POST /verifyReceipt`
/// - `GET /inApps/v1/transactions/{id}`, `/inApps/v2/history/{id}`, `/inApps/v1/subscriptions/{id}`,
///   `/inApps/v1/lookup/{orderId}`, `/inApps/v2/refund/lookup/{id}` (Bearer JWT required)
/// - `/control/…`: the test controls (see `ControlRoutes`).
public final class SimulatorServer: Sendable {
    public let simulator: AppStoreSimulator
    /// `http://127.0.0.1:PORT`
    public let baseURL: String
    public let port: Int
    private let task: Task<Void, any Error>

    private init(simulator: AppStoreSimulator, port: Int, host: String, task: Task<Void, any Error>) {
        self.simulator = simulator
        self.port = port
        baseURL = "http://\(host):\(port)"
        self.task = task
    }

    /// Starts serving and returns once the port is bound.
    public static func start(_ simulator: AppStoreSimulator, host: String = "127.0.0.1", port: Int = 0) async throws -> SimulatorServer {
        let router = Router()
        AppleRoutes(simulator: simulator).add(to: router)
        ControlRoutes(simulator: simulator).add(to: router)
        let (bound, boundContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "iapdesk-simulator"),
            onServerRunning: { channel in
                boundContinuation.yield(channel.localAddress?.port ?? port)
                boundContinuation.finish()
            },
            logger: .init(label: "iapdesk.simulator", factory: { _ in SwiftLogNoOpLogHandler() }))
        let task = Task {
            defer { boundContinuation.finish() }
            try await app.runService(gracefulShutdownSignals: [])
        }
        var iterator = bound.makeAsyncIterator()
        guard let actual = await iterator.next() else {
            // The server ended before binding: surface its error (the port in use, say).
            try await task.value
            throw SimulatorServerError.notStarted(host: host, port: port)
        }
        return SimulatorServer(simulator: simulator, port: actual, host: host, task: task)
    }

    /// Runs until the task that called it is cancelled (for `iapdesk simulator`).
    public func wait() async throws {
        try await withTaskCancellationHandler {
            try await task.value
        } onCancel: { [task] in
            task.cancel()
        }
    }

    public func stop() async {
        task.cancel()
        _ = try? await task.value
    }
}

public enum SimulatorServerError: Error, CustomStringConvertible {
    case notStarted(host: String, port: Int)
    public var description: String {
        switch self {
        case .notStarted(let host, let port): "the simulator could not listen on \(host):\(port)"
        }
    }
}
