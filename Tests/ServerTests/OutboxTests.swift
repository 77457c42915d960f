import AppStore
import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import ReferenceGame
import Server
import TestSupport
import Testing

/// Every grant, revoke and refund reaches the game through the outbox —
/// pushed as signed webhooks to the reference game over loopback, or pulled by cursor.
@Suite("serve: events to the game")
struct OutboxTests {
    static let secret = "game-webhook-secret-0123456789"

    /// The reference game on loopback and a `serve` pushing to it, retrying quickly.
    static func withGame(
        _ backend: Backend, retryFor: Millis = .hours(72),
        _ body: (IntakeTests.Running, ReferenceGame) async throws -> Void
    ) async throws {
        let game = ReferenceGame(secret: secret)
        let receiver = try await ReferenceGameServer.start(game)
        var webhook = GameWebhook(url: receiver.webhookURL, secrets: [Secret(value: secret, origin: "test")])
        webhook.backoffCap = 50
        webhook.retryFor = retryFor
        do {
            try await IntakeTests.withServe(backend, game: webhook) { serve in try await body(serve, game) }
        } catch {
            await receiver.stop()
            throw error
        }
        await receiver.stop()
    }

    /// A player buys `product` for `order` on `account`; the game server submits the receipt.
    static func buy(_ serve: IntakeTests.Running, order: String, account: String, product: String = "coins_300") async throws {
        #expect(
            try await serve.call(.POST, "/v1/orders", json: #"{"order_id":"\#(order)","account_id":"\#(account)","product_id":"\#(product)"}"#).status == 201)
        let appleId = "\(order)@icloud"
        await serve.simulator.ledger.purchase(appleId: appleId, productId: product, kind: .consumable, appAccountToken: order)
        let receipt = try await serve.simulator.ledger.receipt(appleId: appleId)
        #expect(try await serve.call(.POST, "/v1/orders/\(order)/receipts", json: #"{"receipt_data":"\#(receipt)"}"#).status == 202)
    }

    /// Waits until every event of `orders` is confirmed, or `seconds` pass.
    static func waitConfirmed(_ orders: [String], in store: OrderStore, count: Int = 1, seconds: Double = 90) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var all = true
            for order in orders {
                let events = try await store.outbox.events(orderId: order)
                if events.count < count || events.contains(where: { $0.event.confirmedAt == nil }) { all = false; break }
            }
            if all { return }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test(
        "A delivered purchase is pushed to the game, signed; the game applies it once; an operator's revoke takes it back; every try is on record",
        arguments: Backend.all)
    func pushDelivered(backend: Backend) async throws {
        try await Self.withGame(backend) { serve, game in
            try await Self.buy(serve, order: "g-1", account: "p1")
            _ = try await IntakeTests.waitFor("delivered", order: "g-1", in: serve)
            try await Self.waitConfirmed(["g-1"], in: serve.store)
            #expect(await game.balance("p1", "coins_300") == 1)
            let delivered = try #require(try await serve.store.outbox.events(orderId: "g-1").first)
            #expect(delivered.event.type == .delivered && delivered.event.confirmedVia == "push")
            #expect(delivered.attempts.map(\.httpStatus) == [200])
            #expect(delivered.attempts.first?.answer == "applied \(delivered.event.eventId)", "the game's own answer is kept")
            let payload = try #require(try JSONSerialization.jsonObject(with: Data(delivered.event.payload.utf8)) as? [String: Any])
            #expect(payload["summary"] as? String == "give p1 1 × 300 金币 · 300 Coins", "\(payload)")
            #expect(payload["transaction_id"] != nil && payload["grant_kind"] as? String == "automatic")

            let order = try await serve.store.orders.detail("g-1").order
            try await serve.store.orders.revoke(orderId: "g-1", expectedVersion: order.version, by: Operator(name: "root", role: .admin), reason: "fraud")
            try await Self.waitConfirmed(["g-1"], in: serve.store, count: 2)
            #expect(await game.balance("p1", "coins_300") == 0)
            #expect(try await serve.store.outbox.events(orderId: "g-1").map(\.event.type) == [.delivered, .revoked])
            #expect(await game.duplicates == 0)
            #expect(await game.refused == 0)
        }
    }

    @Test("A game answering 2xx with a 64 KB page is confirmed at the first try; the start of its answer is kept", arguments: [Backend.sqlite])
    func longAnswer(backend: Backend) async throws {
        try await Self.withGame(backend) { serve, game in
            await game.setFault(.verbose)
            try await Self.buy(serve, order: "long-1", account: "p-long")
            try await Self.waitConfirmed(["long-1"], in: serve.store)
            let delivered = try #require(try await serve.store.outbox.events(orderId: "long-1").first)
            #expect(delivered.event.confirmedAt != nil && delivered.attempts.map(\.httpStatus) == [200], "\(delivered.attempts)")
            let answer = try #require(delivered.attempts.first?.answer)
            #expect(answer.hasPrefix("applied \(delivered.event.eventId)") && answer.count <= 300, "\(answer.count) characters kept")
            #expect(await game.balance("p-long", "coins_300") == 1)
        }
    }

    @Test(
        "The game down for a (compressed) day, then back: every event confirmed, each applied exactly once, per account in order; the banner said so meanwhile",
        arguments: Backend.all)
    func gameDownThenBack(backend: Backend) async throws {
        try await Self.withGame(backend) { serve, game in
            await game.setFault(.down)
            let orders = (0..<9).map { "d-\($0)" }
            for (index, order) in orders.enumerated() { try await Self.buy(serve, order: order, account: "acct-\(index % 3)") }
            for order in orders { _ = try await IntakeTests.waitFor("delivered", order: order, in: serve) }
            // Retries pile up against the 503s; nothing is confirmed, nothing is lost.
            let deadline = Date().addingTimeInterval(30)
            var outage: GameEndpointOutage?
            while outage == nil, Date() < deadline {
                outage = try await serve.store.outbox.endpointOutage()
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(outage?.waiting == 9, "\(String(describing: outage))")
            #expect(outage?.banner.contains("game endpoint failing since") == true)
            #expect(try await serve.store.outbox.unconfirmedCount() == 9)
            #expect(await game.applied.isEmpty)

            await game.setFault(.none)
            try await Self.waitConfirmed(orders, in: serve.store)
            for account in 0..<3 { #expect(await game.balance("acct-\(account)", "coins_300") == 3) }
            #expect(await game.applied.count == 9)
            // Per account, the game applied the events in the order they were written.
            var written: [String: [String]] = [:]
            var appliedOf: [String: [String]] = [:]
            let applied = await game.applied
            for order in orders {
                let event = try #require(try await serve.store.outbox.events(orderId: order).first?.event)
                written[event.accountId, default: []].append(event.eventId)
            }
            let accountOf = Dictionary(uniqueKeysWithValues: written.flatMap { account, ids in ids.map { ($0, account) } })
            for id in applied { if let account = accountOf[id] { appliedOf[account, default: []].append(id) } }
            #expect(appliedOf == written)
            #expect(try await serve.store.outbox.unconfirmedCount() == 0)
            #expect(try await serve.store.outbox.endpointOutage() == nil)
            let tries = try await serve.store.outbox.events(orderId: "d-0").first?.attempts ?? []
            #expect(tries.count >= 2 && tries.last?.httpStatus == 200 && tries.first?.httpStatus == 503, "\(tries)")
        }
    }

    @Test(
        "A dead letter: past its retry window an event is DEAD; an operator resends it (audited) and the game applies it once; resending a confirmed one changes no balance",
        arguments: [Backend.sqlite])
    func deadLetterResent(backend: Backend) async throws {
        try await Self.withGame(backend, retryFor: 300) { serve, game in
            await game.setFault(.error500)
            try await Self.buy(serve, order: "x-1", account: "px")
            _ = try await IntakeTests.waitFor("delivered", order: "x-1", in: serve)
            let deadline = Date().addingTimeInterval(30)
            var event = try await serve.store.outbox.events(orderId: "x-1").first?.event
            while event?.deadAt == nil, Date() < deadline {
                try await Task.sleep(for: .milliseconds(50))
                event = try await serve.store.outbox.events(orderId: "x-1").first?.event
            }
            let dead = try #require(event)
            #expect(dead.deliveryText.hasPrefix("DEAD after") && dead.lastError?.contains("HTTP 500") == true, "\(dead)")

            await game.setFault(.none)
            let support = Operator(name: "sam", role: .support)
            await #expect(throws: StoreError.self) { try await serve.store.outbox.resend(dead.eventId, by: support, reason: " ") }
            try await serve.store.outbox.resend(dead.eventId, by: support, reason: "player says nothing arrived")
            try await Self.waitConfirmed(["x-1"], in: serve.store)
            #expect(await game.balance("px", "coins_300") == 1)
            try await serve.store.outbox.resend(dead.eventId, by: support, reason: "game lost its copy")
            try await Self.waitConfirmed(["x-1"], in: serve.store)
            #expect(await game.balance("px", "coins_300") == 1, "applied once by its id")
            #expect(await game.duplicates == 1)
            let audit = try await serve.store.orders.detail("x-1").audit.map(\.action)
            #expect(audit.filter { $0 == .eventResend }.count == 2 && audit.contains(.eventDead), "\(audit)")
        }
    }

    @Test("A long poll that outlasts the store's deadline is a wait, not an outage: 200 with no events", arguments: Backend.all)
    func longPollOutlastsStoreDeadline(backend: Backend) async throws {
        // A deadline of 3 s, not 1: on 2 cores running the whole suite one store call took
        // longer than 1 s and answered 503, and opening the store once took over 2 s to
        // connect, which is the deadline working, not this test.
        try await IntakeTests.withServe(backend, storeDeadline: .seconds(3)) { serve in
            let started = ContinuousClock.now
            let empty = try await serve.call(.GET, "/v1/events?after=0&wait=5")
            #expect(empty.status == 200 && (empty.body["events"] as? [Any])?.isEmpty == true, "\(empty.status) \(empty.body)")
            #expect(ContinuousClock.now - started >= .seconds(5), "the poll waited what it asked for")
        }
    }

    @Test(
        "Pull: a game without webhooks reads events after its cursor (long poll) and acknowledges them; a cursor never handed out is refused",
        arguments: Backend.all)
    func pull(backend: Backend) async throws {
        try await IntakeTests.withServe(backend) { serve in
            let empty = try await serve.call(.GET, "/v1/events?after=0")
            #expect(empty.status == 200 && (empty.body["events"] as? [Any])?.isEmpty == true && empty.body["next_cursor"] as? Int == 0)
            #expect(try await serve.call(.GET, "/v1/events?after=5").status == 400)
            // A long poll waits for the delivery that happens while it waits. On a loaded
            // machine the worker may take longer than one poll's 10 s limit; a game polls
            // again, and so does this test (three polls, as long as waitConfirmed's 30 s).
            async let waited = serve.call(.GET, "/v1/events?after=0&wait=10")
            try await Task.sleep(for: .milliseconds(200))
            try await OutboxTests.buy(serve, order: "p-1", account: "puller")
            var answer = try await waited
            for _ in 0..<2 where (answer.body["events"] as? [Any])?.isEmpty == true {
                answer = try await serve.call(.GET, "/v1/events?after=0&wait=10")
            }
            let events = try #require(answer.body["events"] as? [[String: Any]])
            #expect(events.count == 1 && events.first?["type"] as? String == "delivered" && events.first?["order_id"] as? String == "p-1", "\(answer.body)")
            let cursor = try #require(answer.body["next_cursor"] as? Int)
            #expect(events.first?["cursor"] as? Int == cursor)
            #expect(try await serve.store.outbox.unconfirmedCount() == 1)
            let ack = try await serve.call(.POST, "/v1/events/ack", json: #"{"cursor":\#(cursor)}"#)
            #expect(ack.status == 200 && ack.body["confirmed"] as? Int == 1)
            #expect(try await serve.store.outbox.events(orderId: "p-1").first?.event.confirmedVia == "pull")
            #expect(try await serve.call(.POST, "/v1/events/ack", json: #"{"cursor":-1}"#).status == 400)
            #expect(try await serve.call(.GET, "/v1/events", token: nil).status == 401)
        }
    }

    @Test(
        "The Serving article's recipe, proven by the reference game: a wrong HMAC, a replayed old timestamp and a missing header are refused; two live secrets let a rotation go without a gap"
    )
    func signatureRecipe() async throws {
        let game = ReferenceGame(secret: Self.secret)
        let body = Data(#"{"effect":{"account_id":"a","op":"give","product_id":"coins_60","quantity":1},"id":"evt_1","type":"delivered"}"#.utf8)
        let good = WebhookSignature.header(body: body, secrets: [Self.secret])
        #expect(await game.receive(body: body, signature: nil).status == 401)
        #expect(await game.receive(body: body, signature: WebhookSignature.header(body: body, secrets: ["someone-else"])).status == 401)
        let tampered = Data(String(decoding: body, as: UTF8.self).replacingOccurrences(of: "\"quantity\":1", with: "\"quantity\":100").utf8)
        #expect(await game.receive(body: tampered, signature: good).status == 401, "the body is what is signed")
        let old = WebhookSignature.header(body: body, secrets: [Self.secret], at: Date().addingTimeInterval(-600))
        #expect(await game.receive(body: body, signature: old).answer.contains("replay"))
        #expect(await game.receive(body: body, signature: "t=abc").status == 401)
        #expect(await game.refused == 5)
        // Rotation: iapdesk signs with the old and the new secret; a game on either accepts.
        let rotating = WebhookSignature.header(body: body, secrets: ["old-secret", Self.secret])
        #expect(await game.receive(body: body, signature: rotating).status == 200)
        #expect(await game.receive(body: body, signature: good).status == 200)
        #expect(await game.balance("a", "coins_60") == 1)
        #expect(await game.duplicates == 1)
    }

    @Test(
        "The Serving article's Python snippet accepts iapdesk's signature and refuses a forged, tampered or replayed webhook",
        .needs("python3") { Machine.executable("python3") != nil })
    func readmeRecipeInPython() async throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/OrderStore/OrderStore.docc/Serving.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let begin = text.range(of: "<!-- webhook-recipe:begin -->"), let end = text.range(of: "<!-- webhook-recipe:end -->") else {
            Issue.record("Serving.md has no webhook recipe between its markers")
            return
        }
        let snippet = text[begin.upperBound..<end.lowerBound].replacingOccurrences(of: "```python", with: "").replacingOccurrences(of: "```", with: "")
        guard let python = Machine.executable("python3") else { throw Machine.Missing(what: "python3") }
        let script = Scratch.url("iapdesk-recipe-\(UUID().uuidString.prefix(8)).py")
        try
            (snippet + """

                import os, sys
                print(verify(os.environ["SECRET"].encode(), os.environ["HEADER"], sys.stdin.buffer.read()))
                """).write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }

        func run(header: String, body: Data) async throws -> String {
            let finished = try await ChildProcess.run(python, [script.path], environment: ["SECRET": Self.secret, "HEADER": header], input: body)
            return finished.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let body = Data(#"{"id":"evt_1","summary":"give p1 1 × 300 金币"}"#.utf8)
        #expect(try await run(header: WebhookSignature.header(body: body, secrets: [Self.secret]), body: body) == "True")
        #expect(try await run(header: WebhookSignature.header(body: body, secrets: ["old", Self.secret]), body: body) == "True", "rotation")
        #expect(try await run(header: WebhookSignature.header(body: body, secrets: ["forger"]), body: body) == "False")
        #expect(try await run(header: WebhookSignature.header(body: body, secrets: [Self.secret]), body: body + Data(" ".utf8)) == "False")
        #expect(try await run(header: WebhookSignature.header(body: body, secrets: [Self.secret], at: Date().addingTimeInterval(-600)), body: body) == "False")
        #expect(try await run(header: "garbage", body: body) == "False")
    }
}
