import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import Server
import TestSupport
import Testing

/// On cores a `serve` shares with its worker, the requests someone waits on go first: the
/// worker applies what was stored between them, never holding an acknowledgement up, and
/// never waits longer than `yieldToRequests` for a gap.
@Suite("serve: acknowledgements before applying")
struct AcknowledgementsFirstTests {
    typealias Running = IntakeTests.Running

    /// A game server placing an order whose body arrives later: `serve` is at work on it
    /// from the head on.
    static func slowOrder(_ orderId: String, in serve: Running) throws -> (request: SlowRequest, rest: String) {
        let body = #"{"order_id":"\#(orderId)","account_id":"acct-slow","product_id":"coins_60"}"#
        let port = try #require(URL(string: serve.baseURL)?.port)
        let head =
            "POST /v1/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(IntakeTests.token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        return (try SlowRequest(port: port, head: head + body.prefix(10)), String(body.dropFirst(10)))
    }

    /// Apple refunds a delivered consumable; the receiver stores the notification and the
    /// worker has it to apply.
    static func postRefund(of purchase: SimulatedPurchase, in serve: Running) async throws -> (status: Int, body: [String: Any]) {
        try await serve.simulator.ledger.refund(transactionId: purchase.transactionId, reason: 1)
        let refunded = try #require(await serve.simulator.ledger.purchase(transactionId: purchase.transactionId))
        let stored = try await NotificationTests.post(try await serve.simulator.notification("REFUND", about: refunded), in: serve)
        #expect(stored.status == 200, "\(stored.body)")
        return stored
    }

    static func outcome(_ stored: (status: Int, body: [String: Any]), in serve: Running) async throws -> NotificationOutcome {
        try await serve.store.notifications.record(id: Int64(try #require(stored.body["id"] as? Int))).outcome
    }

    /// Long polls the game's events as a game does, asking again after each poll that ends empty,
    /// for at most a minute.
    static func longPollUntilAnEvent(after cursor: Int64, in serve: Running) async throws -> (status: Int, events: Int?, said: String) {
        var after = cursor
        let until = ContinuousClock.now + .seconds(60)
        while true {
            let answer = try await serve.call(.GET, "/v1/events?after=\(after)&wait=10")
            let events = (answer.body["events"] as? [Any])?.count
            guard answer.status == 200, events == 0, ContinuousClock.now < until, let next = answer.body["next_cursor"] as? Int else {
                return (answer.status, events, "\(answer.body)")
            }
            after = Int64(next)
        }
    }

    @Test(
        "A notification stored while a game server's request is under way is applied once that request is answered; a long poll, which only waits, holds nothing up",
        arguments: Backend.all)
    func applyingWaitsForARequestUnderWay(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, worker: { $0.yieldToRequests = .seconds(120) }) { serve in
            let purchase = try await NotificationTests.delivered("y-1", product: "coins_300", kind: .consumable, in: serve)
            // A game pulling its events, each poll waiting up to 10 s (the most) for the next: one is
            // open until the refund's event is written, by the very apply it must not hold up. On a
            // loaded machine the steps below can outlast one poll; the game then asks again.
            let poll = Task { try await Self.longPollUntilAnEvent(after: try await serve.store.outbox.newestCursor(), in: serve) }
            let (slow, rest) = try Self.slowOrder("slow-1", in: serve)
            try await Task.sleep(for: .milliseconds(500))  // the head is read; the handler waits for the body
            let stored = try await Self.postRefund(of: purchase, in: serve)
            try await Task.sleep(for: .seconds(1))
            #expect(try await Self.outcome(stored, in: serve) == .pending, "applied while a request was under way")

            try slow.send(rest)
            #expect(try await slow.status() == 201)
            // Long before the 120 s the worker would wait at most.
            let record = try await NotificationTests.applied(stored, in: serve, seconds: 30)
            #expect(record.outcome == .applied, "\(record.said ?? "")")
            #expect(try await serve.store.orders.find("y-1")?.state == .refunded)
            let polled = try await poll.value
            #expect(polled.status == 200 && polled.events == 1, "\(polled)")
        }
    }

    @Test("A request that never ends holds applying back no longer than yieldToRequests", arguments: Backend.all)
    func applyingIsNeverStarved(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, worker: { $0.yieldToRequests = .seconds(2) }) { serve in
            let purchase = try await NotificationTests.delivered("y-2", product: "coins_300", kind: .consumable, in: serve)
            let (slow, rest) = try Self.slowOrder("slow-2", in: serve)
            try await Task.sleep(for: .milliseconds(500))
            let stored = try await Self.postRefund(of: purchase, in: serve)
            // The slow request stays under way all through.
            let record = try await NotificationTests.applied(stored, in: serve, seconds: 30)
            #expect(record.outcome == .applied, "\(record.said ?? "")")
            try slow.send(rest)
            #expect(try await slow.status() == 201)
        }
    }
}
