import AppStoreSimulator
import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import OrderDomain
import OrderStore
import SyntheticData
import TestSupport
import Testing

/// Three `serve` processes on one PostgreSQL behind HAProxy, as a studio grows past one
/// machine: intake, Apple's notifications and the workers spread over all three, and one
/// of them killed with SIGKILL while the game servers and Apple keep sending.
@Suite("Several serves behind a load balancer", .serialized, .needsHAProxy, .takesTurns)
struct BalancedServeTests {
    /// What the clients were told, through the balancer.
    struct Seen: Sendable {
        var statuses: [Int: Int] = [:]
        var unanswered = 0
        var acknowledged: [(order: String, submission: Int)] = []
        var notified: [String] = []
    }

    @Test(
        "Three serves behind HAProxy, one killed -9 under load: every 202 and every notification 200 is stored, each paid order delivered exactly once, the killed one's jobs taken over within the lease, the others' /readyz 200 throughout"
    )
    func killOneOfThree() async throws {
        let binary = try Machine.requireBinary()
        let setup = try await ServeCrashTests.Setup.make(.postgres)
        var serves: [ServeProcess] = []
        defer { for serve in serves { kill(serve.process.processIdentifier, SIGKILL) } }
        for _ in 0..<3 {
            serves.append(try await ServeProcess.start(binary, config: setup.config, tokens: setup.tokens, arguments: ServeCrashTests.serveArguments))
        }
        let balancer = try await HAProxy.start(before: serves.compactMap(\.baseURL))
        defer { balancer.stop() }
        // HAProxy has checked each backend once before the load starts.
        #expect(try await eventually(within: 10) { await LoopbackHTTP.call(.GET, balancer.baseURL + "/readyz")?.status == 200 })

        // Purchases made before the load, so the load is the servers' work only.
        var work: [(order: String, receipt: String, test: String)] = []
        for n in 0..<120 {
            let order = "lb-\(n)"
            let appleId = "lb-\(n)@icloud"
            let purchase = await setup.simulator.ledger.purchase(appleId: appleId, productId: "coins_60", kind: .consumable, appAccountToken: order)
            work.append(
                (order, try await setup.simulator.ledger.receipt(appleId: appleId), try await setup.simulator.notification("TEST", about: purchase).body))
        }
        let seen = NIOLockedValueBox(Seen())
        func note(_ answer: (status: Int, body: [String: Any])?) {
            seen.withLockedValue { seen in
                if let answer { seen.statuses[answer.status, default: 0] += 1 } else { seen.unanswered += 1 }
            }
        }
        let token = ServeCrashTests.token
        let queue = NIOLockedValueBox(work[...])
        let clock = ContinuousClock()
        let started = clock.now
        // Four game servers and Apple, each sending one thing after another through the balancer.
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        while let (order, receipt, test) = queue.withLockedValue({ $0.popFirst() }) {
                            let placed = await LoopbackHTTP.call(
                                .POST, balancer.baseURL + "/v1/orders",
                                json: #"{"order_id":"\#(order)","account_id":"acct-\#(order)","product_id":"coins_60"}"#,
                                token: token)
                            note(placed)
                            if placed?.status == 201 {
                                let answer = await LoopbackHTTP.call(
                                    .POST, balancer.baseURL + "/v1/orders/\(order)/receipts", json: #"{"receipt_data":"\#(receipt)"}"#, token: token)
                                note(answer)
                                if let answer, answer.status == 202, let id = answer.body["submission_id"] as? Int {
                                    seen.withLockedValue { $0.acknowledged.append((order, id)) }
                                }
                            }
                            let notified = await LoopbackHTTP.call(.POST, balancer.baseURL + "/apple/notifications/production", json: test)
                            note(notified)
                            if notified?.status == 200 { seen.withLockedValue { $0.notified.append(order) } }
                        }
                    }
                }
            }
        }
        // A third of the way through, serve 0 dies without a word.
        #expect(try await eventually(within: 60) { seen.withLockedValue { $0.acknowledged.count } >= 40 })
        await serves[0].kill9()
        let killedAt = clock.now
        for survivor in serves.dropFirst() {
            #expect(await LoopbackHTTP.call(.GET, try #require(survivor.baseURL) + "/readyz")?.status == 200, "a survivor is ready right after the kill")
        }
        await load.value
        let result = seen.withLockedValue { $0 }
        print(
            "three serves behind HAProxy: \(work.count) purchases in \(clock.now - started), answers \(result.statuses.sorted { $0.key < $1.key }), unanswered \(result.unanswered), \(result.acknowledged.count) receipts and \(result.notified.count) notifications acknowledged"
        )
        #expect(result.acknowledged.count > work.count / 2, "most purchases went through: \(result.statuses)")
        #expect(Set(result.statuses.keys).isSubset(of: [200, 201, 202, 502, 503]), "stored, or come back later: \(result.statuses)")
        for survivor in serves.dropFirst() {
            let url = try #require(survivor.baseURL)
            #expect(await LoopbackHTTP.call(.GET, url + "/readyz")?.status == 200, "the survivors stay ready")
            // Each took its share of the intake.
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url + "/metrics"), timeout: .seconds(10))
            let metrics = String(buffer: try await response.body.collect(upTo: 1 << 22))
            #expect(metrics.contains(#"iapdesk_http_requests_total{route="/v1/orders",method="POST",status="201"}"#), "\(metrics.prefix(2000))")
        }

        // Nothing acknowledged is lost; everything paid is delivered once, within the lease.
        let store = try await setup.open()
        do {
            for (order, id) in result.acknowledged {
                #expect(try await store.orders.detail(order).submissions.contains { $0.id == Int64(id) }, "\(order)'s 202 is stored")
            }
            let storedTests = try await store.notifications.list(limit: 10_000).count
            #expect(storedTests >= result.notified.count, "every notification answered 200 is stored")
            let deliveredAll = try await eventually(within: 30) {
                for (order, _) in result.acknowledged where try await store.orders.find(order)?.state != .delivered { return false }
                return true
            }
            let settledAfterKill = clock.now - killedAt
            #expect(deliveredAll, "every acknowledged order delivered")
            print("three serves behind HAProxy: all delivered \(settledAfterKill) after the kill (lease 5 s)")
            for (order, _) in result.acknowledged {
                #expect(try await store.orders.detail(order).grants.count == 1, "\(order) granted once")
            }
            let queue = try await store.jobs.status()
            #expect(
                try await eventually(within: 30) {
                    let q = try await store.jobs.status(); return q.due == 0 && q.leased == 0
                }, "the queue drains: \(queue)")
        } catch {
            await store.close()
            throw error
        }
        await store.close()
        await setup.tearDown()
    }
}
