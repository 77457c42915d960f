import Foundation
import OrderDomain
import OrderStore
import SyntheticData
import Terminal
import TestSupport
import Testing

@testable import Console

/// Every screen as an operator sees it at 80×24, kept as a text file beside this test
/// (`Snapshots/screens`): a change to what operators read, or to what fits, shows up in
/// review. The store is seeded from a fixed seed and instant, and the console's clock is
/// that instant, so ages and times read the same on every run.
/// `IAPDESK_RECORD_SNAPSHOTS=1 swift test --filter ScreenSnapshot` writes them anew.
@Suite("Screen snapshots at 80×24")
struct ScreenSnapshotTests {
    static let snapshots = Snapshots("Snapshots/screens")
    static let instant: Millis = 1_795_428_672_000  // 2026-11-23 10:11:12 UTC

    /// A screen and the keys that reach it from the home screen: ":cmd" runs a command,
    /// "/text" filters, "enter" and single characters are keys.
    static let screens: [(name: String, keys: [String])] = [
        ("orders", []),
        ("orders-filtered", ["/state:rejected"]),
        ("stuck", [":stuck"]),
        ("order-stuck", [":stuck", "enter"]),
        ("order-grant-dialog", [":stuck", "enter", "g"]),
        ("receipt", [":stuck", "enter", "v"]),
        ("account", [":stuck", "enter", "a"]),
        ("disputes", [":disputes"]),
        ("subscription-disputed", [":disputes", "enter"]),
        ("orphans", [":orphans"]),
        ("conflicts", [":conflicts"]),
        ("undelivered", [":undelivered"]),
        ("notifications", [":notifications"]),
        ("jobs", [":jobs"]),
        ("audit", [":audit"]),
        ("help", ["?"]),
    ]

    @Test("Each screen at 80×24 matches its snapshot", arguments: screens.map(\.name))
    func screen(_ name: String) async throws {
        let keys = try #require(Self.screens.first { $0.name == name }?.keys)
        try await withTemporaryStore { store in
            try await SyntheticStore(orders: 400, seed: 5, anchor: Self.instant).write(into: store)
            let terminal = MemoryTerminal(rows: 24, cols: 80)
            let session = ConsoleSession(store: store, actor: Operator(name: "alice", role: .admin), storeLabel: "test.sqlite", clock: { Self.instant })
            let app = ConsoleApp(session: session, device: terminal)
            await app.open()
            for key in keys {
                switch key {
                case "enter": await app.press(.enter)
                case let command where command.hasPrefix(":"): await app.command(String(command.dropFirst()))
                case let filter where filter.hasPrefix("/"):
                    await app.type(filter)
                    await app.press(.enter)
                default: await app.type(key)
                }
            }
            try Self.snapshots.check(try terminal.screenText() + "\n", "\(name).txt", what: "the \(name) screen at 80×24")
        }
    }

    @Test("Every screen snapshot still has its screen")
    func noStraySnapshots() {
        Self.snapshots.expectOnly(Set(Self.screens.map { "\($0.name).txt" }))
    }
}
