import Foundation
import Hummingbird
import OrderDomain
import OrderStore

/// Pull, for games that cannot receive webhooks (openapi.yaml is the contract):
/// - `GET /v1/events?after=CURSOR&limit=N&wait=SECONDS` lists events after the cursor in
///   commit order, waiting up to `wait` seconds for the first one (a long poll);
/// - `POST /v1/events/ack` with `{"cursor": N}` confirms every event up to N.
/// Each event is the webhook's body plus its `cursor`.
struct EventRoutes: Sendable {
    let store: OrderStore
    let tokens: ClientTokens

    func add(to router: Router<ServeContext>) {
        let games = router.group().add(middleware: ClientTokenCheck(tokens: tokens))
        games.get("/v1/events") { request, _ in
            let after = try Self.integer(request, "after", default: 0, range: 0...Int64.max)
            let limit = Int(try Self.integer(request, "limit", default: 100, range: 1...1000))
            let deadline = ContinuousClock.now + (try IntakeRoutes.waitSeconds(request))
            // A cursor never handed out is a client's bug, not something to wait for.
            let newest = try await store.outbox.newestCursor()
            guard after <= newest else { throw Problem.badRequest("after: \(after) is beyond the newest event (\(newest))") }
            var events = try await store.outbox.events(after: after, limit: limit)
            while events.isEmpty, ContinuousClock.now < deadline {
                try await RequestsInFlight.waiting { try await Task.sleep(for: .milliseconds(100)) }
                events = try await store.outbox.events(after: after, limit: limit)
            }
            let bodies = try events.map { event in
                var body = try GameEventBody(stored: event.payload, eventId: event.eventId)
                body.cursor = event.id
                return body
            }
            return JSONAnswer.response(.ok, encoding: EventPage(events: bodies, nextCursor: events.last?.id ?? after))
        }
        games.post("/v1/events/ack") { request, _ in
            struct Ack: Decodable { var cursor: Int64 }
            let ack = try IntakeRoutes.decode(Ack.self, try await request.body.collect(upTo: 4096))
            guard ack.cursor >= 0 else { throw Problem.badRequest("cursor: must be 0 or more") }
            return JSONAnswer.response(.ok, encoding: Confirmed(confirmed: try await store.outbox.acknowledge(through: ack.cursor)))
        }
    }

    /// A page of events after the game's cursor, and the cursor to ask after next.
    struct EventPage: Encodable {
        var events: [GameEventBody]
        var nextCursor: Int64
        enum CodingKeys: String, CodingKey {
            case events
            case nextCursor = "next_cursor"
        }
    }

    /// How many events an acknowledgement confirmed.
    struct Confirmed: Encodable {
        var confirmed: Int
    }

    private static func integer(_ request: Request, _ name: String, default value: Int64, range: ClosedRange<Int64>) throws -> Int64 {
        guard let text = request.uri.queryParameters.get(name) else { return value }
        guard let number = Int64(text), range.contains(number) else {
            throw Problem.badRequest("\(name): an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
