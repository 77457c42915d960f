import AppStore
import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import TestSupport
import Testing

/// Apple misbehaving, one fault class at a time, through real HTTP: every retryable fault
/// leaves a paid order in `verify_retry` on the R4 schedule and never rejects it (R3, R4);
/// the final ones reject with the reason. Afterwards the same order is delivered.
@Suite("End to end: Apple's faults")
struct FaultTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var spec: String
        var serverAPI: Bool
        var retryable: Bool
        var reasonContains: String
        var testDescription: String { "\(spec) via \(serverAPI ? "Server API" : "verifyReceipt")" }
    }

    static let cases: [Case] = [
        Case(spec: "21005", serverAPI: false, retryable: true, reasonContains: "21005"),
        Case(spec: "21009", serverAPI: false, retryable: true, reasonContains: "21009"),
        Case(spec: "21105r", serverAPI: false, retryable: true, reasonContains: "21105"),
        Case(spec: "21105", serverAPI: false, retryable: true, reasonContains: "21105"),
        Case(spec: "21105n", serverAPI: false, retryable: false, reasonContains: "21105"),
        Case(spec: "http503", serverAPI: false, retryable: true, reasonContains: "HTTP 503"),
        Case(spec: "http429", serverAPI: false, retryable: true, reasonContains: "429"),
        Case(spec: "malformed", serverAPI: false, retryable: true, reasonContains: "unreadable"),
        Case(spec: "truncated", serverAPI: false, retryable: true, reasonContains: "unreadable"),
        Case(spec: "21005", serverAPI: true, retryable: true, reasonContains: "5000001"),
        Case(spec: "http500", serverAPI: true, retryable: true, reasonContains: "HTTP 500"),
        Case(spec: "http429", serverAPI: true, retryable: true, reasonContains: "4290000"),
        Case(spec: "malformed", serverAPI: true, retryable: true, reasonContains: "unreadable"),
        Case(spec: "truncated", serverAPI: true, retryable: true, reasonContains: "unreadable"),
    ]

    @Test("Each fault class", arguments: cases)
    func faultClass(_ c: Case) async throws {
        try await SimulatorHarness.run(serverAPI: c.serverAPI) { h in
            try await h.buy("o1", account: "a1", appleId: "p@icloud", productId: "no_ads")
            try await h.setFaults(c.spec)
            let outcome = try await h.reverify("o1")
            // R3: no fault of Apple's rejects a paid order; one Apple calls not retryable waits for a person.
            #expect(outcome.order.state == .verifyRetry)
            #expect(outcome.order.needsOperator == !c.retryable)
            #expect(outcome.order.lastError?.contains(c.reasonContains) == true, "\(outcome.order.lastError ?? "nil")")
            try await h.setFaults("none")
            #expect(try await h.reverify("o1").order.state == .delivered)
        }
    }

    @Test("A 429 with a short Retry-After is waited out and the call repeated once")
    func retryAfterIsHonoured() async throws {
        try await SimulatorHarness.run(serverAPI: false) { h in
            try await h.buy("o1", account: "a1", appleId: "p@icloud", productId: "coins_60")
            try await h.setFaults("http429*1")  // the next request only
            let start = ContinuousClock.now
            let outcome = try await h.reverify("o1")
            #expect(ContinuousClock.now - start >= .seconds(1), "Retry-After: 1 was waited out")
            #expect(outcome.order.state == .delivered)
        }
    }

    @Test("A time-out is retryable and says so; the wait is bounded by the client's deadline")
    func timeout() async throws {
        try await SimulatorHarness.run(serverAPI: false, timeout: .seconds(1)) { h in
            try await h.buy("o1", account: "a1", appleId: "p@icloud", productId: "coins_60")
            // Apple hangs for a minute; the 1 s deadline ends the wait long before (the slack
            // is for a loaded test machine, not a budget).
            await h.simulator.faults.set(FaultProfile(faults: [.init(.timeout)], hang: 60))
            let start = ContinuousClock.now
            let outcome = try await h.reverify("o1")
            #expect(ContinuousClock.now - start < .seconds(20))
            #expect(outcome.order.state == .verifyRetry)
            #expect(outcome.report.transportError?.contains("timed out") == true)
        }
    }

    @Test("A dead Apple (nothing listening) is retryable; the receipt stays stored")
    func deadApple() async throws {
        try await SimulatorHarness.run(serverAPI: false, timeout: .seconds(2)) { h in
            try await h.buy("o1", account: "a1", appleId: "p@icloud", productId: "coins_60")
            await h.server.stop()
            let outcome = try await h.reverify("o1")
            #expect(outcome.order.state == .verifyRetry)
            let error = try #require(outcome.report.transportError)
            #expect(error.contains("refused") || error.contains("reset") || error.contains("timed out"), "\(error)")
            #expect(try await h.store.orders.detail("o1").submissions.count == 1)
        }
    }

    @Test("A 21005 storm: every order waits in verify_retry on the R4 schedule, none rejected, all delivered after")
    func storm() async throws {
        try await SimulatorHarness.run(serverAPI: false) { h in
            let ids = (1...12).map { "o\($0)" }
            for (i, id) in ids.enumerated() {
                try await h.buy(id, account: "a\(i)", appleId: "p\(i)@icloud", productId: PurchaseFlowTests.products[i % 4])
            }
            try await h.setFaults("storm")
            for round in 1...3 {
                let before = Millis.now()
                let result = await h.store.apple.reverifyAll(ids, using: h.verifier, concurrency: 4)
                let after = Millis.now()
                #expect(result.retrying == ids.count && result.failed.isEmpty)
                for id in ids {
                    let order = try #require(try await h.store.orders.find(id))
                    #expect(order.state == .verifyRetry && order.attempts == round && !order.needsOperator)
                    // R4: 10 s, 30 s, 2 min after the first, second and third failure.
                    let expected: Millis = [10_000, 30_000, 120_000][round - 1]
                    let next = try #require(order.nextRetryAt)
                    // Counted from each order's failure, which came during the run.
                    #expect(next >= before + expected - 1_000 && next <= after + expected + 1_000, "\(next - before) ms after the run began")
                }
            }
            #expect(try await h.store.reports.counts().byState[.rejected, default: 0] == 0)
            try await h.setFaults("none")
            let after = await h.store.apple.reverifyAll(ids, using: h.verifier, concurrency: 4)
            #expect(after.delivered == ids.count)
        }
    }
}
