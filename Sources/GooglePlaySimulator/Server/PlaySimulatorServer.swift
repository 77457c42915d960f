import Foundation
import Hummingbird
import SimulatorFaults

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
    private let server: LoopbackServer
    /// `http://127.0.0.1:PORT`
    public var baseURL: String { server.baseURL }
    public var port: Int { server.port }

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
        return PlaySimulatorServer(
            simulator: simulator, server: try await LoopbackServer.start(router, name: "iapdesk-play-simulator", host: host, port: port))
    }

    private init(simulator: GooglePlaySimulator, server: LoopbackServer) {
        self.simulator = simulator
        self.server = server
    }

    /// Runs until the task that called it is cancelled (for `iapdesk play-simulator`).
    public func wait() async throws { try await server.wait() }

    public func stop() async {
        await simulator.notifications.stop()
        await server.stop()
    }
}
