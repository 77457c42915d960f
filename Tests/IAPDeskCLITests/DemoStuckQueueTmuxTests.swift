import Foundation
import OrderDomain
import OrderStore
import SyntheticData
import TestSupport
import Testing

/// The demo's stuck queue as an on-call engineer clears it: every listed order re-verified
/// with `R` against the demo's simulated App Store, which knows every paid purchase. No
/// paid order is rejected; a dispute whose owner's period Apple had refunded (a notification
/// the store missed) goes to the submitter; and the store reopened later still re-verifies.
@Suite("Demo stuck queue in tmux", .serialized, .needsTmux, .takesTurns)
struct DemoStuckQueueTmuxTests {
    @Test(
        "R on :stuck re-verifies the queue with no paid order rejected; a dispute whose owner lapsed goes to the submitter; reopened, re-verify still works",
        arguments: Backend.all)
    func clearStuckQueue(backend: Backend) async throws {
        let binary = try Tmux.binary()
        let demo = try await DemoSession.start(binary, on: backend, orders: 20_000)
        defer { demo.stop() }
        var tmux = demo.tmux
        // Read the store only once the demo has finished seeding it.
        try #require(demo.home.contains("Orders [all]"))
        let db = demo.location

        let before = try await Self.snapshot(db)
        #expect(before.stuck.count >= 40, "the demo's stuck queue: \(before.stuck.count)")
        #expect(!before.disputed.isEmpty)

        try tmux.command("stuck")
        _ = await tmux.screen { $0.contains("Stuck [") }
        // Wide enough that a failure's message is read whole, with its reason.
        try tmux.resize(cols: 240, rows: 24)
        try tmux.send("R")
        let done = await tmux.screen(waitingFor: { $0.contains("re-verified \(before.stuck.count):") }, timeout: 90)
        #expect(done.contains("still waiting on Apple") && !done.contains("failed"), "\(done)")

        let after = try await Self.snapshot(db)
        #expect(after.rejected == before.rejected, "no paid order rejected")
        #expect(after.stuck.allSatisfy { after.disputed.contains($0) }, "only disputes the owner still keeps wait: \(after.stuck)")
        let settled = try #require(before.disputed.first { !after.disputed.contains($0) }, "a dispute settled by Apple's facts")

        // The demo's reference game was told of every delivery and confirmed each.
        let told = try await Self.gameTold(db)
        #expect(told.confirmed >= before.stuck.count - after.stuck.count && told.unconfirmed == 0, "\(told)")

        // The operator reads why: the owner's period was refunded, the submitter has it now.
        try tmux.command("order \(settled)")
        let detail = await tmux.screen { $0.contains("Order \(settled)") && $0.contains("Timeline") }
        #expect(detail.contains("delivered"), "\(detail)")
        #expect(detail.contains("game told") && detail.contains("(push)"), "the game confirmed it: \(detail)")
        try tmux.send("o")
        let subscription = await tmux.screen { $0.contains("Subscription ") }
        #expect(subscription.contains("was refunded; ownership moves"), "\(subscription)")
        try tmux.send("Escape", "Escape")
        try tmux.command("q")
        let deadline = Date().addingTimeInterval(10)
        while tmux.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!tmux.isRunning)

        // Reopened: the same simulated App Store, so Apple still knows the demo's purchases.
        tmux = try demo.reopen(binary)
        defer { tmux.stop() }
        #expect(await tmux.screen(waitingFor: { $0.contains("Orders [all]") }, timeout: 60).contains("Orders [all]"))
        try tmux.command("order demo_000005")
        _ = await tmux.screen { $0.contains("Order demo_000005") }
        try tmux.send("r")
        let again = await tmux.screen(waitingFor: { $0.contains("demo_000005: App Store Server API") }, timeout: 15)
        #expect(again.contains("demo_000005: App Store Server API, Production") && !again.contains("4040010"), "\(again)")
        try tmux.send("q")
    }

    /// Events the demo's game confirmed (push) and those still owed, once the worker had
    /// up to 30 seconds to send them.
    /// Events pushed and confirmed, and those still owed, leaving out the two deliveries the
    /// demo makes the game miss on purpose (its `lost_` players, `:undelivered` to practise on).
    private static func gameTold(_ db: StoreLocation) async throws -> (confirmed: Int, unconfirmed: Int) {
        let store = try await OrderStore.open(db, settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        func owed() async throws -> Int { try await store.outbox.unconfirmed(limit: 500).filter { !$0.accountId.hasPrefix("lost_") }.count }
        let deadline = Date().addingTimeInterval(30)
        while try await owed() > 0, Date() < deadline { try await Task.sleep(for: .milliseconds(200)) }
        let confirmed = try await store.outbox.events(after: 0, limit: 100_000).filter { $0.confirmedVia == "push" }.count
        let unconfirmed = try await owed()
        await store.close()
        return (confirmed, unconfirmed)
    }

    /// What the store holds now: the stuck queue, the open disputes, the rejected count.
    private static func snapshot(_ db: StoreLocation) async throws -> (stuck: [String], disputed: [String], rejected: Int64) {
        let store = try await OrderStore.open(db, settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        let stuck = try await store.reports.stuck(limit: 500).items.map(\.order.orderId)
        let disputed = try await store.orders.page(OrderFilter(state: .disputed), limit: 500).items.map(\.orderId)
        let rejected = try await store.reports.counts().byState[.rejected] ?? 0
        await store.close()
        return (stuck, disputed, rejected)
    }
}
