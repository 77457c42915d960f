import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The reference game on loopback: `POST /iapdesk/events` is its webhook; `GET /players/ID`
/// shows what a player holds.
public final class ReferenceGameServer: Sendable {
    public let game: ReferenceGame
    public let baseURL: String
    private let task: Task<Void, any Error>

    public var webhookURL: String { baseURL + "/iapdesk/events" }

    private init(game: ReferenceGame, baseURL: String, task: Task<Void, any Error>) {
        self.game = game
        self.baseURL = baseURL
        self.task = task
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
        var logger = Logger(label: "reference-game")
        logger.logLevel = .critical  // its shutdown races (a connection cancelled as it stops) are no news to anyone
        let (bound, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname(host, port: port), serverName: "reference-game"),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? port)
                continuation.finish()
            }, logger: logger)
        let task = Task {
            defer { continuation.finish() }
            try await app.runService(gracefulShutdownSignals: [])
        }
        var iterator = bound.makeAsyncIterator()
        guard let actual = await iterator.next() else {
            try await task.value
            throw CancellationError()
        }
        return ReferenceGameServer(game: game, baseURL: "http://\(host):\(actual)", task: task)
    }

    public func stop() async {
        task.cancel()
        _ = try? await task.value
    }
}
