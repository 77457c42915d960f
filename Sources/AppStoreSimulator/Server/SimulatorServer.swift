import Foundation
import Hummingbird
import SimulatorFaults

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
    private let server: LoopbackServer
    /// `http://127.0.0.1:PORT`
    public var baseURL: String { server.baseURL }
    public var port: Int { server.port }

    /// Starts serving and returns once the port is bound.
    public static func start(_ simulator: AppStoreSimulator, host: String = "127.0.0.1", port: Int = 0) async throws -> SimulatorServer {
        let router = Router()
        AppleRoutes(simulator: simulator).add(to: router)
        ControlRoutes(simulator: simulator).add(to: router)
        return SimulatorServer(simulator: simulator, server: try await LoopbackServer.start(router, name: "iapdesk-simulator", host: host, port: port))
    }

    private init(simulator: AppStoreSimulator, server: LoopbackServer) {
        self.simulator = simulator
        self.server = server
    }

    /// Runs until the task that called it is cancelled (for `iapdesk simulator`).
    public func wait() async throws { try await server.wait() }

    public func stop() async { await server.stop() }
}
