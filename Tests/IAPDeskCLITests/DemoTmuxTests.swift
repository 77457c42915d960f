import Foundation
import OrderStore
import Testing

/// `iapdesk demo` in a real terminal, driven by keys: an operator finds an order by its
/// transaction id, reads it, survives a resize and quits.
@Suite("Demo in tmux", .serialized)
struct DemoTmuxTests {
    @Test("Find an order by transaction id, open it, resize, go back and quit")
    func findAndRead() async throws {
        guard let binary = try Tmux.binary() else { return }
        let db = FileManager.default.temporaryDirectory.appendingPathComponent("iapdesk-demo-tmux-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) } }
        let tmux = try Tmux.start("\(binary) demo --orders 2000 --db \(db)")
        defer { tmux.stop() }
        let home = tmux.screen(waitingFor: { $0.contains("Orders [all]") }, timeout: 60)
        #expect(home.contains("Orders [all]"), "\(home)")
        #expect(home.contains("(admin)"))

        // The operator was handed a transaction id: read one from the same store.
        let store = try await OrderStore.open(.sqlite(path: db), settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        let order = try #require(try await store.orders(OrderFilter(state: .delivered), limit: 1).items.first)
        await store.close()
        let tid = try #require(order.transactionId)

        try tmux.send("/")
        try tmux.run("send-keys -t \(tmux.session) -l \(tid)")
        try tmux.send("Enter")
        let found = tmux.screen { $0.contains("Orders [\(tid)] 1") }
        #expect(found.contains(order.orderId), "\(found)")
        try tmux.send("Enter")
        let detail = tmux.screen { $0.contains("Timeline") }
        #expect(detail.contains("Order \(order.orderId)"))
        #expect(detail.contains("granted"))
        try tmux.resize(cols: 60, rows: 16)
        let narrow = tmux.screen { $0.split(separator: "\n").count <= 16 && $0.contains("Esc") }
        #expect(narrow.contains("Order \(order.orderId)"))
        try tmux.send("Escape")
        #expect(tmux.screen { $0.contains("Orders [\(tid)]") }.contains("Orders [\(tid)]"))
        try tmux.send("Escape", "q")
        let deadline = Date().addingTimeInterval(10)
        while tmux.isRunning && Date() < deadline { usleep(100_000) }
        #expect(!tmux.isRunning, "q on the home screen ends the demo")
    }
}
