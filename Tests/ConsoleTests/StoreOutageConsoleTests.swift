import Console
import Foundation
import OrderDomain
import OrderStore
import SyntheticData
import Terminal
import TestSupport
import Testing

/// The console open over PostgreSQL while the server is stopped and started again: the
/// operator is told since when the store is out of reach, keeps what was on screen, and
/// the console comes back by itself.
@Suite("Console: the store out of reach", .needsPostgres, .takesTurns)
struct StoreOutageConsoleTests {
    @Test(
        "PostgreSQL stops under an open console: the banner says since when, the orders read before stay on screen; started again, the next refresh clears it without a restart"
    )
    func unreachableThenBack() async throws {
        let postgres = try await PostgresServer.dedicated()
        var settings = StoreSettings(bundleId: DemoCatalogue.bundleId)
        settings.databaseDeadline = .seconds(2)
        let store = try await OrderStore.openPatiently(.postgres(url: try await postgres.freshDatabaseURL()), settings: settings)
        defer { Task { await store.close() } }
        for product in DemoCatalogue.products { try await store.catalogue.upsert(product) }
        try await store.orders.place(orderId: "ord_before", accountId: "acct-1", productId: "coins_60")
        let terminal = MemoryTerminal(rows: 24, cols: 120)
        let app = ConsoleApp(session: ConsoleSession(store: store, actor: Operator(name: "alice", role: .admin), storeLabel: "pg"), device: terminal)
        await app.open()
        // Read before the outage; under the whole suite's load a first read may pass its 2 s deadline.
        let read = try await eventually(within: 20) {
            if try terminal.screenText().contains("ord_before") { return true }
            await app.refresh()
            return false
        }
        #expect(read, "the orders are on screen before the server stops")

        try await postgres.stop(.fast)
        let started = ContinuousClock.now
        await app.refresh()
        let down = try terminal.screenText()
        #expect(ContinuousClock.now - started < .seconds(5), "the refresh answered within its deadline")
        #expect(down.contains("store unreachable since"), "\(down)")
        #expect(down.contains("ord_before"), "what was read before stays on screen")
        #expect(!down.contains("Generic description"), "\(down)")

        try await postgres.start()
        let back = try await eventually(within: 20) {
            await app.refresh()
            return try !terminal.screenText().contains("store unreachable")
        }
        #expect(back, "the banner goes once the store answers")
        try await store.orders.place(orderId: "ord_after", accountId: "acct-2", productId: "coins_60")
        await app.refresh()
        #expect(try terminal.screenText().contains("ord_after"), "the console reads the store again")
        try? await postgres.stop(.immediate)
    }
}
