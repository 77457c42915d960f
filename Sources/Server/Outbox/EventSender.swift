import AppStore
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import OrderDomain
import OrderStore
import StoreHTTP

/// Where the game receives its events, and how hard to try.
public struct GameWebhook: Sendable {
    public var url: String
    /// Every live secret signs (rotation: add the new one, move the game over, drop the old).
    public var secrets: [Secret]
    public var timeout: Duration = .seconds(10)
    /// How long an event is retried before it is a dead letter (peers stop at 2–24 h).
    public var retryFor: Millis = .hours(72)
    /// Backoff doubles from one second up to this.
    public var backoffCap: Millis = .hours(1)

    public init(url: String, secrets: [Secret]) {
        self.url = url
        self.secrets = secrets
    }

    func backoff(afterAttempts attempts: Int64) -> Millis {
        min(backoffCap, Millis.seconds(1) << min(max(attempts - 1, 0), 20))
    }
}

/// Push: tells the game about one account's events, oldest first, each as a signed POST
/// (the body is the event's payload); a 2xx is the game's confirmation. The first event
/// the game does not confirm stops the round, so the game sees an account's events in
/// order; the job comes back after the backoff. A dead letter does not hold back the
/// events after it.
struct EventSender: Sendable {
    let store: OrderStore
    let webhook: GameWebhook
    let http: HTTPClient
    let metrics: ServeMetrics
    /// The answers of sends running at once (one per account) share a commit.
    let attempts: GroupCommit<EventAttemptRecord, GameEvent>
    static let batch = 100

    init(store: OrderStore, webhook: GameWebhook, http: HTTPClient, metrics: ServeMetrics) {
        self.store = store
        self.webhook = webhook
        self.http = http
        self.metrics = metrics
        attempts = GroupCommit(concurrency: store.concurrentWriters) { batch in try await store.outbox.recordAttempts(batch) }
    }

    func send(account: String) async throws -> JobQueue.Result {
        let events = try await store.outbox.unsent(account: account, limit: Self.batch)
        for event in events {
            let attempt = await post(event)
            metrics.eventSent(status: attempt.httpStatus)
            let after = try await attempts.submit(EventAttemptRecord(event: event, attempt: attempt, giveUpAt: event.createdAt + webhook.retryFor))
            guard after.confirmedAt == nil, after.deadAt == nil else { continue }
            return .again(at: attempt.at + webhook.backoff(afterAttempts: after.attempts))
        }
        return events.count == Self.batch ? .again(at: .now()) : .done
    }

    /// One signed POST. Never throws: a refused connection, a timeout or a 500 is an
    /// attempt like any other, kept with the event.
    func post(_ event: GameEvent) async -> GameEventAttempt {
        let body = Data(event.payload.utf8)
        var request = HTTPClientRequest(url: webhook.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "IAPDesk-Event-Id", value: event.eventId)
        request.headers.add(name: WebhookSignature.header, value: WebhookSignature.header(body: body, secrets: webhook.secrets.map(\.value)))
        request.body = .bytes(ByteBuffer(data: body))
        let start = ContinuousClock.now
        let at = Millis.now()
        do {
            let (http, timeout) = (self.http, webhook.timeout)
            let (status, text) = try await ExchangeDeadline.run(within: timeout) { [request] in
                let response = try await http.execute(request, timeout: .init(timeout))
                // The start of the game's answer is kept so support can read it; the rest of
                // a long answer is not read (leaving the loop drops the connection), so a
                // game that sends gigabytes costs neither the time nor the memory.
                var answer = ByteBuffer()
                for try await var chunk in response.body {
                    answer.writeBuffer(&chunk)
                    if answer.readableBytes >= 300 { break }
                }
                return (Int(response.status.code), String(String(buffer: answer).prefix(300)))
            }
            return GameEventAttempt(
                at: at, via: .push, httpStatus: status,
                answer: (200..<300).contains(status) ? text : "HTTP \(status): \(text)", latencyMs: (ContinuousClock.now - start).milliseconds)
        } catch {
            return GameEventAttempt(
                at: at, via: .push, httpStatus: nil, answer: TransportErrorText.describe(error, timeout: webhook.timeout, peer: "the game"),
                latencyMs: (ContinuousClock.now - start).milliseconds)
        }
    }
}

extension Duration {
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
