import AppStoreSimulator
import Foundation
import NIOHTTP1
import OrderDomain
import OrderStore
import SyntheticData
import TestSupport
import Testing

/// `iapdesk serve` on a PostgreSQL server of the test's own, which is stopped and started
/// under load as an on-call engineer's routine restart (`fast`) or a crash (`immediate`)
/// would: no request waits past its deadline, what was acknowledged is stored, the worker
/// resumes by itself, `/readyz` tells the truth, and SIGTERM works during an outage.
@Suite("serve: PostgreSQL restarts and outages", .serialized, .needsBinary, .needsPostgres, .takesTurns)
struct DatabaseOutageTests {
    static let token = ServeCrashTests.token
    /// The store's deadline in these tests (`[store] deadline_seconds`).
    static let deadline = 3
    /// The longest any answer may take: the request's deadline, which all its store calls
    /// share, and slack for a machine running the whole suite on 2 cores (answers took up
    /// to 9.2 s there once the suite reached 410 tests). Without deadlines a request waits
    /// out the outage: 60 s in the test that keeps PostgreSQL down.
    static let longestAnswer = Duration.seconds(deadline + 9)

    /// What the clients were told, and how long the slowest answer took.
    actor Tally {
        var submissions: [(order: String, submission: Int)] = []
        var notifications: [String] = []
        var statuses: [Int: Int] = [:]
        var slowest: Duration = .zero
        var unanswered = 0
        var unavailableWithoutRetryAfter = 0

        func record(_ answer: Outcome?) {
            guard let answer else {
                unanswered += 1
                return
            }
            statuses[answer.status, default: 0] += 1
            slowest = max(slowest, answer.took)
            if answer.status == 503, answer.retryAfter == nil { unavailableWithoutRetryAfter += 1 }
        }
        func submitted(_ order: String, _ id: Int) { submissions.append((order, id)) }
        func notified(_ uuid: String) { notifications.append(uuid) }
    }

    /// An answer without its body, for the tally.
    struct Outcome: Sendable {
        var status: Int
        var retryAfter: String?
        var took: Duration
    }

    /// One call with a client timeout far past any deadline, so a hang shows as a slow answer
    /// (or none), not as the client's own time-out.
    static func call(_ method: HTTPMethod, _ url: String, json: String? = nil, token: String? = nil) async -> LoopbackHTTP.Answer? {
        await LoopbackHTTP.answer(method, url, json: json, token: token, timeout: .seconds(60))
    }

    /// The built binary, a PostgreSQL server of the test's own to stop and start, and a
    /// `serve` setup on it with the store's deadline of these tests.
    static func dedicatedServer() async throws -> (binary: String, postgres: PostgresServer.Instance, setup: ServeCrashTests.Setup) {
        let binary = try Machine.requireBinary()
        let postgres = try await PostgresServer.dedicated()
        let setup = try await ServeCrashTests.Setup.make(
            location: .postgres(url: try await postgres.freshDatabaseURL()), storeLines: ["deadline_seconds = \(Self.deadline)"])
        return (binary, postgres, setup)
    }

    /// A paid order as a game server sends it: the order, then its receipt. Returns the
    /// submission's id when it was acknowledged (202).
    static func placeAndSubmit(_ base: String, order: String, receipt: String, tally: Tally) async {
        let placed = await call(
            .POST, base + "/v1/orders", json: #"{"order_id":"\#(order)","account_id":"acct-\#(order)","product_id":"coins_60"}"#, token: token)
        await tally.record(placed?.outcome)
        guard let placed, placed.status == 201 || placed.status == 200 else { return }
        let answer = await call(.POST, base + "/v1/orders/\(order)/receipts", json: #"{"receipt_data":"\#(receipt)"}"#, token: token)
        await tally.record(answer?.outcome)
        if let answer, answer.status == 202, let id = answer.body["submission_id"] as? Int { await tally.submitted(order, id) }
    }

    /// Receipts for `count` new purchases, minted before the load so the load is the server's.
    static func purchases(_ setup: ServeCrashTests.Setup, prefix: String, count: Int) async throws -> [(order: String, receipt: String)] {
        var work: [(String, String)] = []
        for index in 0..<count {
            let order = "\(prefix)-\(index)"
            await setup.simulator.ledger.purchase(appleId: "\(order)@icloud", productId: "coins_60", kind: .consumable, appAccountToken: order)
            work.append((order, try await setup.simulator.ledger.receipt(appleId: "\(order)@icloud")))
        }
        return work
    }

    /// Polls `/readyz` until it answers `status` (true), or gives up after `seconds`.
    static func readiness(_ base: String, becomes status: Int, within seconds: Double) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if await call(.GET, base + "/readyz")?.status == status { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// Waits until `order` is delivered (the worker ran it), up to `seconds`.
    static func delivered(_ store: OrderStore, _ order: String, within seconds: Double) async throws -> Bool {
        try await eventually(within: seconds) { try await store.orders.find(order)?.state == .delivered }
    }

    /// After the load: every acknowledged submission and notification is stored, the worker
    /// drains the queue, and each paid order is delivered exactly once.
    static func checkNothingLost(_ setup: ServeCrashTests.Setup, _ tally: Tally) async throws {
        let store = try await setup.open()
        let submissions = await tally.submissions
        for (order, id) in submissions {
            let stored = try await store.orders.detail(order).submissions.map(\.id)
            #expect(stored.contains(Int64(id)), "submission \(id) of \(order) got a 202 and is in the store")
        }
        let storedUUIDs = Set(try await store.notifications.list(limit: 10_000).compactMap(\.facts.uuid))
        let notifications = await tally.notifications
        #expect(notifications.allSatisfy(storedUUIDs.contains), "every acknowledged notification is stored")
        let orders = Set(submissions.map(\.order))
        let delivered = try await eventually(within: 60) {
            for order in orders where try await store.orders.find(order)?.state != .delivered { return false }
            return true
        }
        let queue = try await store.jobs.status()
        #expect(delivered, "the worker delivered every acknowledged order: \(queue)")
        for order in orders {
            let detail = try await store.orders.detail(order)
            #expect(detail.order.state == .delivered, "\(order) is \(detail.order.state.rawValue): \(detail.order.lastError ?? "")")
            #expect(detail.grants.count == 1, "\(order) granted \(detail.grants.count) times")
        }
        #expect(try await store.audit.verify() == .intact(entries: try await store.audit.entries(limit: 1).first?.seq ?? 0))
        await store.close()
    }

    @Test(
        "PostgreSQL stopped and started 10 times (fast and immediate) under intake, notification and worker load: no answer past its deadline, 503s say Retry-After, every 202 and 2xx is stored, the worker resumes after each restart, /readyz is 503 while the server is down, paid orders delivered exactly once"
    )
    func restartsUnderLoad() async throws {
        let (binary, postgres, setup) = try await Self.dedicatedServer()
        let log = setup.folder + "/serve.log"
        let serve = try await ServeProcess.start(binary, config: setup.config, tokens: setup.tokens, arguments: ServeCrashTests.serveArguments, log: log)
        let base = try #require(serve.baseURL)
        let store = try await setup.open()
        let tally = Tally()
        let restarts = Int(ProcessInfo.processInfo.environment["IAPDESK_RESTARTS"] ?? "") ?? 10
        var readyWentDown = 0
        for round in 0..<restarts {
            let work = try await Self.purchases(setup, prefix: "r\(round)", count: 24)
            let notice = try await setup.simulator.notification(
                "TEST", about: try #require(await setup.simulator.ledger.purchases(appleId: "r\(round)-0@icloud").first))
            let mode: PostgresServer.Instance.StopMode = round % 2 == 0 ? .fast : .immediate
            try await withThrowingTaskGroup(of: Void.self) { group in
                // Game servers, eight at a time, through the round's purchases, and Apple's notification.
                for lane in 0..<8 {
                    group.addTask {
                        for (order, receipt) in work.enumerated().filter({ $0.offset % 8 == lane }).map(\.element) {
                            await Self.placeAndSubmit(base, order: order, receipt: receipt, tally: tally)
                        }
                    }
                }
                group.addTask {
                    for _ in 0..<3 {
                        let answer = await Self.call(.POST, base + "/apple/notifications/production", json: notice.body)
                        await tally.record(answer?.outcome)
                        if answer?.status == 200 {
                            await tally.notified(notice.uuid)
                            return
                        }
                        try? await Task.sleep(for: .seconds(2))
                    }
                }
                // The restart, while the load runs.
                try await Task.sleep(for: .milliseconds(Int.random(in: 100...600)))
                try await postgres.stop(mode)
                if await Self.readiness(base, becomes: 503, within: 10) { readyWentDown += 1 }
                try await Task.sleep(for: .milliseconds(500))
                try await postgres.start()
                try await group.waitForAll()
            }
            // The worker came back by itself: an order paid after the restart is delivered.
            #expect(await Self.readiness(base, becomes: 200, within: 15), "ready again after restart \(round + 1)")
            let probe = try await Self.purchases(setup, prefix: "after\(round)", count: 1)
            await Self.placeAndSubmit(base, order: probe[0].order, receipt: probe[0].receipt, tally: tally)
            #expect(try await Self.delivered(store, probe[0].order, within: 30), "the worker delivers again after restart \(round + 1) (\(mode))")
        }
        let (slowest, unanswered, statuses, bare) = (
            await tally.slowest, await tally.unanswered, await tally.statuses, await tally.unavailableWithoutRetryAfter
        )
        print("PostgreSQL restarts: \(restarts), answers by status \(statuses), slowest \(slowest), unanswered \(unanswered)")
        #expect(unanswered == 0, "every request was answered")
        #expect(slowest < Self.longestAnswer, "the slowest answer took \(slowest)")
        #expect(bare == 0, "every 503 says Retry-After")
        #expect(readyWentDown == restarts, "/readyz answered 503 during \(readyWentDown) of \(restarts) outages")
        await store.close()
        try await Self.checkNothingLost(setup, tally)
        await serve.kill9()
        let logged = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(!logged.contains("Generic description"), "the log carries the database's own words")
        #expect(logged.contains("the order store is unreachable"), "the outage is logged")
        await setup.tearDown()
    }

    @Test(
        "PostgreSQL down for 60 s: every request answers 503 with Retry-After within its deadline, /readyz 503, SIGTERM exits within the grace period; when it is back, serve recovers without a restart and nothing acknowledged is lost"
    )
    func longOutage() async throws {
        let (binary, postgres, setup) = try await Self.dedicatedServer()
        let serve = try await ServeProcess.start(binary, config: setup.config, tokens: setup.tokens, arguments: ServeCrashTests.serveArguments)
        let stopping = try await ServeProcess.start(
            binary, config: setup.config, tokens: setup.tokens, arguments: ServeCrashTests.serveArguments + ["--grace-seconds", "10"])
        let base = try #require(serve.baseURL)
        let tally = Tally()
        let before = try await Self.purchases(setup, prefix: "before", count: 8)
        for (order, receipt) in before { await Self.placeAndSubmit(base, order: order, receipt: receipt, tally: tally) }
        #expect(await tally.submissions.count == before.count)

        try await postgres.stop(.fast)
        let outage = Double(ProcessInfo.processInfo.environment["IAPDESK_OUTAGE_SECONDS"] ?? "") ?? 60
        let until = ContinuousClock.now + .seconds(outage)
        let during = try await Self.purchases(setup, prefix: "during", count: 1)
        var answers: [Int] = []
        var terminated: Duration??
        while ContinuousClock.now < until {
            let ready = await Self.call(.GET, base + "/readyz")
            await tally.record(ready?.outcome)
            answers.append(ready?.status ?? 0)
            let placed = await Self.call(
                .POST, base + "/v1/orders", json: #"{"order_id":"\#(during[0].order)","account_id":"acct","product_id":"coins_60"}"#, token: Self.token)
            await tally.record(placed?.outcome)
            answers.append(placed?.status ?? 0)
            if terminated == nil, ContinuousClock.now > until - .seconds(outage / 2) {
                terminated = .some(await stopping.terminate(within: .seconds(20)))
            }
            try await Task.sleep(for: .seconds(1))
        }
        try await postgres.start()
        #expect(answers.allSatisfy { $0 == 503 }, "during the outage every answer was 503: \(Set(answers))")
        let slowest = await tally.slowest
        #expect(slowest < Self.longestAnswer, "the slowest answer took \(slowest)")
        #expect(await tally.unavailableWithoutRetryAfter == 0, "every 503 says Retry-After")
        let took = try #require(terminated ?? nil, "serve did not stop within 20 s of SIGTERM during the outage")
        #expect(took < .seconds(10 + 2), "SIGTERM during the outage stopped serve in \(took) (grace 10 s)")
        #expect(stopping.process.exitStatus == 0, "a stop is not a failure")

        // Back: ready again, and an order paid now is delivered by the same process.
        #expect(await Self.readiness(base, becomes: 200, within: 15), "ready again without a restart")
        await Self.placeAndSubmit(base, order: during[0].order, receipt: during[0].receipt, tally: tally)
        let store = try await setup.open()
        #expect(try await Self.delivered(store, during[0].order, within: 30), "the worker resumed by itself")
        await store.close()
        try await Self.checkNothingLost(setup, tally)
        await serve.kill9()
        await setup.tearDown()
    }
}

extension LoopbackHTTP.Answer {
    var outcome: DatabaseOutageTests.Outcome { DatabaseOutageTests.Outcome(status: status, retryAfter: retryAfter, took: took) }
}
