import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SimulatorFaults

/// The reference game on loopback: `POST /iapdesk/events` is its webhook; `GET /players/ID`
/// shows what a player holds.
public final class ReferenceGameServer: Sendable {
    public let game: ReferenceGame
    private let server: LoopbackServer
    public var baseURL: String { server.baseURL }

    public var webhookURL: String { baseURL + "/iapdesk/events" }

    private init(game: ReferenceGame, server: LoopbackServer) {
        self.game = game
        self.server = server
    }

    public static func start(_ game: ReferenceGame, host: String = "127.0.0.1", port: Int = 0) async throws -> ReferenceGameServer {
        let router = Router()
        router.post("/iapdesk/events") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            if await game.fault == .slow { try await Task.sleep(for: .seconds(2)) }
            let (status, answer) = await game.receive(
                body: Data(buffer: body), signature: request.headers[HTTPField.Name("IAPDesk-Signature") ?? .authorization])
            return Response(status: .init(code: status), headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: answer)))
        }
        router.get("/players/:id") { _, context -> Response in
            let player = context.parameters.get("id") ?? ""
            let held = await game.holdings(of: player)
            let body = (try? JSONSerialization.data(withJSONObject: held, options: [.sortedKeys])) ?? Data("{}".utf8)
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        let server = try await LoopbackServer.start(router, name: "reference-game", host: host, port: port)
        return ReferenceGameServer(game: game, server: server)
    }

    public func stop() async { await server.stop() }
}
