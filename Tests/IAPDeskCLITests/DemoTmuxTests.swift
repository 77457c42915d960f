import Foundation
import OrderDomain
import OrderStore
import SyntheticData
import TestSupport
import Testing

/// `iapdesk demo` in a real terminal, driven by keys: an operator finds an order by its
/// transaction id, reads it, survives a resize and quits.
@Suite("Demo in tmux", .serialized, .needsTmux, .takesTurns)
struct DemoTmuxTests {
    @Test("Find an order by transaction id, open it, resize, go back and quit")
    func findAndRead() async throws {
        let binary = try Tmux.binary()
        let demo = try await DemoSession.start(binary)
        defer { demo.stop() }
        let (tmux, db, home) = (demo.tmux, demo.db, demo.home)
        #expect(home.contains("Orders [all]"), "\(home)")
        #expect(home.contains("(admin)"))

        // The operator was handed a transaction id: read one from the same store.
        let store = try await OrderStore.open(.sqlite(path: db), settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        let order = try #require(try await store.orders.page(OrderFilter(state: .delivered), limit: 1).items.first)
        // Its history is whole: every delivered order, on either store, had its event to the
        // game, confirmed; the rehearsal's events the game never got are dead instead.
        let delivered = try await store.orders.page(OrderFilter(state: .delivered), limit: 5_000).items
        var untold: [String] = []
        for each in delivered {
            let events = try await store.outbox.events(orderId: each.orderId).map(\.event)
            if !events.contains(where: { $0.confirmedAt != nil || $0.deadAt != nil }) { untold.append(each.orderId) }
        }
        await store.close()
        #expect(
            delivered.count > 1_000 && untold.isEmpty, "\(untold.count) of \(delivered.count) delivered orders without a confirmed event: \(untold.prefix(5))")
        let tid = try #require(order.transactionId)

        try tmux.send("/")
        try tmux.run("send-keys -t \(tmux.session) -l \(tid)")
        try tmux.send("Enter")
        let found = await tmux.screen { $0.contains("Orders [\(tid)] 1") }
        #expect(found.contains(order.orderId), "\(found)")
        try tmux.send("Enter")
        let detail = await tmux.screen { $0.contains("Timeline") }
        #expect(detail.contains("Order \(order.orderId)"))
        #expect(detail.contains("game told    delivered: confirmed"), "the game was told of it when it was granted: \(detail)")
        // The timeline, newest first: the grant is below the game's event.
        try tmux.send("NPage")
        #expect(await tmux.screen { $0.contains("granted") }.contains("granted"))
        try tmux.resize(cols: 60, rows: 16)
        // Redrawn whole at the new size: header on top, footer at the bottom.
        let narrow = await tmux.screen { $0.split(separator: "\n").count <= 16 && $0.hasPrefix(" iapdesk") && $0.contains("Esc") }
        #expect(narrow.contains("Order \(order.orderId)"))
        try tmux.send("Escape")
        #expect(await tmux.screen { $0.contains("Orders [\(tid)]") }.contains("Orders [\(tid)]"))
        try tmux.send("Escape", "q")
        let deadline = Date().addingTimeInterval(10)
        while tmux.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!tmux.isRunning, "q on the home screen ends the demo")
    }
}

/// The tickets the seeds describe, resolved by keyboard alone at 80×24.
@Suite("Support flows in tmux", .serialized, .needsTmux, .takesTurns)
struct SupportFlowTmuxTests {
    @Test(
        "Re-verify a paid order against the simulator and read Apple's answer; grant a stuck one; transfer a disputed subscription; find it all in the audit log",
        arguments: Backend.all)
    func tickets(backend: Backend) async throws {
        let binary = try Tmux.binary()
        let demo = try await DemoSession.start(binary, on: backend)
        defer { demo.stop() }
        let tmux = demo.tmux
        #expect(demo.home.contains("Orders [all]"))

        func type(_ text: String) throws { try tmux.run("send-keys -t \(tmux.session) -l '\(text)'") }

        // A dropped order: paid, never verified. Re-verify it with (simulated) Apple, read the answer.
        try tmux.command("order demo_000003")
        #expect(await tmux.screen { $0.contains("Order demo_000003") }.contains("receipt_received"))
        try tmux.send("r")
        let verified = await tmux.screen(waitingFor: { $0.contains("demo_000003: App Store Server API") }, timeout: 15)
        #expect(verified.contains("demo_000003: App Store Server API, Production"), "\(verified)")
        try tmux.send("v")
        let receipt = await tmux.screen { $0.contains("The store's verdict: valid → delivered") }
        #expect(receipt.contains("✓ bundle id: com.iapdesk.demo"), "\(receipt)")
        #expect(receipt.contains("VERIFIED iapdesk App Store Simulator Root CA"))
        // Further down, Apple's signed answer read back as the rules saw it, this order's marked.
        try tmux.send("NPage")
        let merged = await tmux.screen { $0.contains("▶ ") }
        #expect(merged.contains("▶ ") && !merged.contains("not read back"), "\(merged)")
        try tmux.send("Escape", "Escape")

        // A stuck order Apple can't confirm: grant it by hand with a reason.
        try tmux.command("stuck")
        #expect(await tmux.screen { $0.contains("Stuck [") }.contains("LAST ERROR"))
        try tmux.send("Enter")
        _ = await tmux.screen { $0.contains("Timeline") }
        try tmux.send("g")
        #expect(await tmux.screen { $0.contains("Reason:") }.contains("exactly once"))
        try type("ticket 101: paid, Apple unreachable for hours")
        try tmux.send("Enter")
        #expect(await tmux.screen { $0.contains("now delivered") }.contains("granted"))

        // An ownership dispute: move the subscription to the account support chose.
        try tmux.command("disputes")
        _ = await tmux.screen { $0.contains("Disputes (R8") }
        try tmux.send("Enter")
        #expect(await tmux.screen { $0.contains("R8 verdict") }.contains("Subscription "))
        #expect(
            try await tmux.transferSubscription(to: "acct-from-ticket-102", reason: "ticket 102: receipt shows the player paid").contains(
                "acct-from-ticket-102"))

        // Everything above is in the audit log, with the operator and the reasons.
        try tmux.command("audit")
        let audit = await tmux.screen { $0.contains("Audit log") && $0.contains("ticket 102") }
        #expect(audit.contains("ownership.tra") && audit.contains("ticket 102: receipt"))
        #expect(audit.contains("grant") && audit.contains("ticket 101: paid"))
        try tmux.command("q")
        let deadline = Date().addingTimeInterval(10)
        while tmux.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!tmux.isRunning)
    }

    @Test(
        "A replayed receipt: the order names the purchase and the order that holds it, the account is flagged, and the grant dialog warns; nothing is delivered twice",
        arguments: Backend.all)
    func replayedReceipt(backend: Backend) async throws {
        let binary = try Tmux.binary()
        let demo = try await DemoSession.start(binary, on: backend)
        defer { demo.stop() }
        let tmux = demo.tmux
        #expect(demo.home.contains("Orders [all]"))

        // The ticket: "I paid for order X and got nothing". X was rejected as a replay of a
        // purchase another account's order holds; read both from the same store.
        let store = try await demo.openStore()
        let rejected = try await store.orders.page(OrderFilter(state: .rejected), limit: 2000).items
        await store.close()
        let replay = try #require(rejected.first { order in order.replayFlag && order.particulars?.holder.map { $0.account != order.accountId } == true })
        let claim = try #require(replay.particulars?.holder)
        let tid = try #require(claim.key.hasPrefix("tid:") ? claim.key.dropFirst(4) : nil)
        let holder = claim.order

        try tmux.send("/")
        try tmux.run("send-keys -t \(tmux.session) -l \(replay.orderId)")
        try tmux.send("Enter")
        _ = await tmux.screen { $0.contains("Orders [\(replay.orderId)] 1") }
        try tmux.send("Enter")
        let detail = await tmux.screen { $0.contains("Timeline") }
        #expect(detail.contains("REPLAY") && detail.contains("already claimed") && detail.contains(holder), "\(detail)")
        try tmux.send("a")
        let account = await tmux.screen { $0.contains("Account \(replay.accountId)") }
        #expect(account.contains("replay  order \(replay.orderId)"), "\(account)")
        try tmux.send("Escape")

        // Granting it anyway would pay twice for one purchase: the dialog says so; cancel.
        try tmux.send("g")
        let dialog = await tmux.screen { $0.contains("Grant \(replay.orderId)") }
        #expect(dialog.contains("WARNING: rejected as a replay"), "\(dialog)")
        try tmux.send("Escape", "Escape")

        // The purchase itself, found by the transaction id in the error: delivered to its payer.
        try tmux.send("/", "C-u")  // the filter line opens on the last filter: clear it
        try tmux.run("send-keys -t \(tmux.session) -l \(tid)")
        try tmux.send("Enter")
        let found = await tmux.screen { $0.contains("Orders [\(tid)]") }
        #expect(found.contains(holder) && found.contains("delivered"), "\(found)")

        let after = try await demo.openStore()
        let kept = try await after.orders.detail(replay.orderId)
        await after.close()
        #expect(kept.order.state == .rejected && kept.grants.isEmpty)
        try tmux.send("q")
    }
}

/// `iapdesk demo` with 2,000 orders on a fresh store file, in tmux at 80×24, once its home
/// screen is up (or after a minute).
struct DemoSession {
    let tmux: Tmux
    /// The demo's SQLite file (what `location` is on SQLite).
    let db: String
    let location: StoreLocation
    let home: String

    static func start(_ binary: String) async throws -> DemoSession { try await start(binary, on: .sqlite) }

    /// The demo on `backend`: a new SQLite file, or a new PostgreSQL database.
    static func start(_ binary: String, on backend: Backend, orders: Int = 2000) async throws -> DemoSession {
        let db = Tmux.demoStorePath("tmux")
        let location = backend == .sqlite ? StoreLocation.sqlite(path: db) : try await backend.freshLocation()
        let tmux = try Tmux.start("\(binary) demo --orders \(orders) --db '\(argument(location, db: db))'")
        return DemoSession(tmux: tmux, db: db, location: location, home: await tmux.screen(waitingFor: { $0.contains("Orders [all]") }, timeout: 90))
    }

    /// What `--db` names: the database's URL, or the SQLite file.
    static func argument(_ location: StoreLocation, db: String) -> String { if case .postgres(let url) = location { url } else { db } }

    /// The demo reopened on the same store, in a new terminal: its simulators are reloaded.
    func reopen(_ binary: String) throws -> Tmux { try Tmux.start("\(binary) demo --db '\(Self.argument(location, db: db))'") }

    /// The demo's store, opened beside the console (on either backend).
    func openStore() async throws -> OrderStore {
        try await OrderStore.open(location, settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
    }

    func stop() {
        tmux.stop()
        Tmux.removeDemoStore(db)
        Backend.cleanUp(location)
        // A database's simulators are kept in the temporary directory, named after it.
        if case .postgres(let url) = location, let database = URL(string: url)?.lastPathComponent {
            let name = String(database.map { $0.isLetter || $0.isNumber ? $0 : "-" })
            let folders = (try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []
            for folder in folders where folder.hasPrefix("iapdesk-demo-postgres-") && folder.hasSuffix("-\(name).simulator") {
                try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "/" + folder)
            }
        }
    }
}

extension Tmux {
    /// On a subscription's page: `t`, the account, the reason and Enter; the screen that says
    /// whom it now belongs to.
    func transferSubscription(to account: String, reason: String) async throws -> String {
        try send("t")
        _ = await screen { $0.contains("To account:") }
        try run("send-keys -t \(session) -l '\(account)'")
        try send("Tab")
        try run("send-keys -t \(session) -l '\(reason)'")
        try send("Enter")
        return await screen { $0.contains("now belongs to") }
    }
}
