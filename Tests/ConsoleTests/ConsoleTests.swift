import Foundation
import OrderDomain
import OrderStore
import SafeText
import SyntheticData
import Terminal
import TestSupport
import Testing

@testable import Console

/// The console on the in-memory terminal over a real SQLite store: what an operator sees
/// after each key, at 80×24 and at a narrow size, with hostile and CJK data in it.
@Suite("Console screens")
struct ConsoleTests {
    static let hostileAccount = "acct\u{1B}[2J\u{202E}nimda"

    /// A small seeded store plus a few hand-made orders, one of them hostile.
    static func withConsole(rows: Int = 24, cols: Int = 80, role: Role = .admin, _ body: (ConsoleApp, MemoryTerminal, OrderStore) async throws -> Void)
        async throws
    {
        try await withTemporaryStore { store in
            try await SyntheticStore(orders: 400, seed: 5).write(into: store)
            try await store.orders.place(orderId: "ord_hostile", accountId: hostileAccount, productId: "vip_monthly")
            try await store.orders.place(orderId: "ord_中文订单", accountId: "玩家_小明_🐉", productId: "coins_980")
            let terminal = MemoryTerminal(rows: rows, cols: cols)
            let session = ConsoleSession(store: store, actor: Operator(name: "alice", role: role), storeLabel: "test.sqlite")
            let app = ConsoleApp(session: session, device: terminal)
            await app.open()
            try await body(app, terminal, store)
        }
    }

    static func screen(_ terminal: MemoryTerminal) throws -> ScreenBuffer { try #require(terminal.lastFrame) }

    /// Every line fits the terminal and carries no control or bidi character.
    static func expectSafe(_ frame: ScreenBuffer) {
        for row in 0..<frame.rows {
            let line = frame.line(row)
            #expect(TextWidth.of(line) <= frame.cols, "row \(row) is wider than the screen: \(line)")
            #expect(Sanitizer.isClean(line), "row \(row) carries a control character")
        }
    }

    @Test("The home screen: header with store, operator, role and counts; the order table; the footer's keys")
    func home() async throws {
        try await Self.withConsole { _, terminal, store in
            let frame = try Self.screen(terminal)
            #expect(frame.line(0).contains("test.sqlite") && frame.line(0).contains("alice (admin)"))
            #expect(frame.line(1).contains("stuck "))
            #expect(frame.line(2).contains("Orders [all]"))
            #expect(frame.line(3).contains("ORDER") && frame.line(3).contains("STATE"))
            let newest = try #require(try await store.orders.page(limit: 1).items.first)
            #expect(frame.line(4).contains(String(newest.orderId.prefix(13))))
            #expect(frame.line(23).contains("Enter") && frame.line(23).contains("filter"))
            Self.expectSafe(frame)
        }
    }

    @Test("The header's counts fit 80 columns whole: the settled ones give way first, none is cut")
    func headerCountsFit() async throws {
        try await Self.withConsole { _, terminal, store in
            let counts = try await store.reports.counts()
            let row = try Self.screen(terminal).line(1)
            #expect(!row.contains("…"), "\(row)")
            #expect(row.contains("stuck \(counts.stuck)"), "\(row)")
            for state in [OrderState.verifyRetry, .disputed] where counts.byState[state, default: 0] > 0 {
                #expect(row.contains("\(Chrome.shortName(state)) \(counts.byState[state, default: 0])"), "\(state): \(row)")
            }
        }
        // Every count wanted, and only 40 cells: stuck and what needs someone stay, whole.
        let items = OrderState.allCases.map { Chrome.CountItem(text: "\(Chrome.shortName($0)) 12345", role: .state($0), priority: Chrome.priority(of: $0)) }
        let shown = Chrome.fitting([Chrome.CountItem(text: "stuck 1000+ (oldest 59d3h)", role: .muted, priority: 0)] + items, width: 40)
        #expect(shown.map(\.text) == ["stuck 1000+ (oldest 59d3h)", "retry 12345"])
    }

    @Test("Arrows move the selection, Enter opens the order with its timeline, Esc comes back")
    func navigate() async throws {
        try await Self.withConsole { app, terminal, store in
            let third = try await store.orders.page(limit: 3).items[2]
            await app.press(.down)
            await app.press(.character("j"))
            let frame1 = try Self.screen(terminal)
            #expect(frame1[6, 0].style == app.session.theme[.selectedRow])
            await app.press(.enter)
            let detail = try Self.screen(terminal)
            #expect(detail.line(2).contains("Order \(third.orderId)"))
            #expect(detail.text.contains("Timeline"))
            #expect(detail.text.contains("order placed"))
            await app.press(.escape)
            let frame2 = try Self.screen(terminal)
            #expect(frame2.line(2).contains("Orders"))
            let frame3 = try Self.screen(terminal)
            #expect(frame3[6, 0].style == app.session.theme[.selectedRow])
        }
    }

    @Test("/ filters as you type by state; an id is looked up on Enter; Esc clears the filter")
    func filter() async throws {
        try await Self.withConsole { app, terminal, store in
            await app.press(.character("/"))
            for c in "state:disputed" { await app.press(.character(c)) }
            var frame = try Self.screen(terminal)
            #expect(frame.line(22).hasPrefix("/state:disputed"))
            let rows = (4..<21).map { frame.line($0) }.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            #expect(!rows.isEmpty && rows.allSatisfy { $0.contains("disputed") })
            await app.press(.enter)

            // A transaction id finds its order exactly.
            let delivered = try #require(try await store.orders.page(OrderFilter(state: .delivered), limit: 1).items.first)
            let tid = try #require(delivered.transactionId)
            await app.press(.character("/"))
            for _ in 0..<20 { await app.press(.backspace) }
            for c in tid { await app.press(.character(c)) }
            await app.press(.enter)
            frame = try Self.screen(terminal)
            #expect(frame.line(2).contains("Orders [\(tid)] 1"))
            #expect(frame.line(4).contains(delivered.orderId))

            // A prefix finds the ids that start with it: a page at most, in byte order.
            for (prefix, found) in [("ord_", "50"), ("ord_h", "1")] {
                await app.press(.character("/"))
                for _ in 0..<40 { await app.press(.backspace) }
                for c in prefix { await app.press(.character(c)) }
                await app.press(.enter)
                frame = try Self.screen(terminal)
                #expect(frame.line(2).contains("Orders [\(prefix)] \(found)"), "\(frame.text)")
                #expect(frame.line(4).contains("ord_"))
            }
            #expect(frame.line(4).contains("ord_hostile"))

            await app.press(.escape)
            let frame4 = try Self.screen(terminal)
            #expect(frame4.line(2).contains("Orders [all]"))
        }
    }

    @Test("/ with two narrowings keeps both; three without an account, or a word that means nothing, is said on Enter")
    func combinedFilter() async throws {
        try await Self.withConsole { app, terminal, store in
            let rejected = try #require(try await store.orders.page(OrderFilter(state: .rejected), limit: 1).items.first)
            await app.press(.character("/"))
            for c in "state:rejected acct:\(rejected.accountId)" { await app.press(.character(c)) }
            await app.press(.enter)
            var frame = try Self.screen(terminal)
            let expected = try await store.orders.page(OrderFilter(state: .rejected, accountId: rejected.accountId)).items
            let rows = (4..<21).map { frame.line($0) }.filter { $0.hasPrefix(" ord_") || $0.hasPrefix("ord_") }
            #expect(rows.count == expected.count && rows.allSatisfy { $0.contains("rejected") && $0.contains(rejected.accountId) }, "\(frame.text)")

            await app.press(.character("/"))
            for _ in 0..<60 { await app.press(.backspace) }
            for c in "state:rejected product:coins_60 env:sandbox" { await app.press(.character(c)) }
            await app.press(.enter)
            frame = try Self.screen(terminal)
            #expect(frame.line(22).contains("state, product and env together are not served"), "\(frame.text)")

            await app.press(.character("/"))
            for _ in 0..<60 { await app.press(.backspace) }
            for c in "state:rejected colour:red" { await app.press(.character(c)) }
            await app.press(.enter)
            frame = try Self.screen(terminal)
            #expect(frame.line(22).contains("unknown filter colour:"), "\(frame.text)")
        }
    }

    @Test("o (subscription) is offered on a subscription's order, not on a consumable's")
    func subscriptionKeyOnlyWhereItApplies() async throws {
        try await Self.withConsole { app, _, store in
            let coins = try #require(try await store.orders.page(OrderFilter(state: .delivered, productId: "coins_60"), limit: 1).items.first)
            let vip = try #require(try await store.orders.page(OrderFilter(state: .delivered, productId: "vip_monthly"), limit: 1).items.first)
            #expect(coins.originalTransactionId != nil)  // every purchase has one; only a subscription has a subscription
            func offered(_ order: Order) -> [String] {
                OrderActions.commands(for: order, session: app.session).filter { $0.usable(by: app.session) }.map(\.binding.action)
            }
            #expect(!offered(coins).contains("subscription"))
            #expect(offered(vip).contains("subscription"))
        }
    }

    @Test("? at 80×24: keys never run into their text, and wrapped text stays in its column")
    func helpLayout() async throws {
        try await Self.withConsole { app, terminal, _ in
            await app.press(.enter)  // an order's screen has the longest keys
            await app.press(.character("?"))
            var body: [String] = []
            for _ in 0..<6 {
                let frame = try Self.screen(terminal)
                body += (3..<21).map { frame.line($0) }
                await app.press(.pageDown)
            }
            let titles: Set<String> = ["This screen", "Everywhere", "Commands", "Aliases", "This session"]
            for line in body where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                let text = String(line.dropFirst())  // column 0 is the margin
                #expect(titles.contains(text.trimmingCharacters(in: .whitespaces)) || text.hasPrefix("  "), "a line restarts at the margin: \(line)")
            }
            let scroll = try #require(body.first { $0.contains("PgUp/PgDn") })
            #expect(scroll.contains("PgUp/PgDn/Home/End  ") || scroll.hasSuffix("End"), "the key runs into its text: \(scroll)")
        }
    }

    @Test(":order with any id opens it; an unknown command says so; ? lists keys and commands")
    func commands() async throws {
        try await Self.withConsole { app, terminal, store in
            let delivered = try #require(try await store.orders.page(OrderFilter(state: .delivered), limit: 1).items.first)
            await app.press(.character(":"))
            for c in "order \(delivered.transactionId ?? "")" { await app.press(.character(c)) }
            await app.press(.enter)
            let frame5 = try Self.screen(terminal)
            #expect(frame5.line(2).contains("Order \(delivered.orderId)"))

            await app.press(.character(":"))
            for c in "nonsense" { await app.press(.character(c)) }
            await app.press(.enter)
            let frame6 = try Self.screen(terminal)
            #expect(frame6.line(22).contains("no command :nonsense"))

            await app.press(.character("?"))
            let help = try Self.screen(terminal).text
            #expect(help.contains("This screen") && help.contains("scroll") && help.contains("Everywhere"))
            var more = ""
            for _ in 0..<3 {
                await app.press(.pageDown)
                more += try Self.screen(terminal).text
            }
            #expect(more.contains("Ctrl-C") && more.contains(":order ID"))
            await app.press(.escape)
            let frame7 = try Self.screen(terminal)
            #expect(frame7.line(2).contains("Order \(delivered.orderId)"))
        }
    }

    @Test("Hostile and CJK data render escaped and cut by width, at 80×24 and at 40×12", arguments: [(24, 80), (12, 40)])
    func hostileData(rows: Int, cols: Int) async throws {
        try await Self.withConsole(rows: rows, cols: cols) { app, terminal, _ in
            Self.expectSafe(try Self.screen(terminal))
            let frame8 = try Self.screen(terminal)
            #expect(frame8.text.contains("acct\\x1B[2J") || cols < 60)
            await app.press(.character(":"))
            for c in "order ord_hostile" { await app.press(.character(c)) }
            await app.press(.enter)
            let detail = try Self.screen(terminal)
            Self.expectSafe(detail)
            #expect(detail.text.contains("\\x1B[2J"))
            #expect(detail.text.contains("月度 VIP"))
            await app.press(.escape)
            await app.press(.character(":"))
            for c in "order ord_中文订单" { await app.press(.character(c)) }
            await app.press(.enter)
            Self.expectSafe(try Self.screen(terminal))
            let frame9 = try Self.screen(terminal)
            #expect(frame9.text.contains("玩家_小明"))
        }
    }

    @Test("Every screen stays inside the terminal and shows hostile data escaped", arguments: [(24, 80), (12, 40)])
    func everyScreenSafe(rows: Int, cols: Int) async throws {
        try await Self.withConsole(rows: rows, cols: cols) { app, terminal, store in
            // A hostile order that is paid and stuck, so it reaches the queue, the receipt
            // screen (a receipt that does not decode) and the audit log.
            try await store.orders.place(orderId: "ord_\u{1B}]0;pwn\u{07}", accountId: Self.hostileAccount, productId: "coins_60", at: .now() - .hours(3))
            try await store.orders.submit(
                orderId: "ord_\u{1B}]0;pwn\u{07}", receiptData: "\u{1B}[31m not base64 \u{202E}",
                claimedTransactionId: "tid\u{1B}[2J", at: .now() - .hours(3))
            var seen: [String: String] = [:]
            func look(_ name: String) throws {
                let frame = try Self.screen(terminal)
                #expect(frame.rows == rows && frame.cols == cols)
                Self.expectSafe(frame)
                seen[name] = frame.text
            }
            for screen in ["stuck", "disputes", "orphans", "audit"] {
                await app.command(screen)
                try look(screen)
            }
            await app.press(.character("?"))
            try look("help")
            await app.press(.escape)
            await app.command("order ord_\u{1B}]0;pwn\u{07}")
            try look("detail")
            await app.press(.character("v"))
            try look("receipt")
            await app.press(.escape)
            await app.press(.character("a"))
            try look("account")
            await app.press(.escape)
            await app.command(
                "otid \(try #require(try await store.orders.page(OrderFilter(productId: "vip_monthly"), limit: 50).items.compactMap(\.originalTransactionId).first))"
            )
            try look("subscription")

            #expect(seen["stuck"]?.contains("ord_\\x1B") == true, "\(seen["stuck"] ?? "")")
            #expect(seen["detail"]?.contains("tid\\x1B[2J") == true || cols < 60)
            #expect(seen["account"]?.contains("\\x1B[2J") == true)
        }
    }

    @Test("A resize redraws at the new size; a tiny terminal gets a message, not a crash")
    func resize() async throws {
        try await Self.withConsole { app, terminal, _ in
            terminal.resize(rows: 12, cols: 40)
            await app.press(.resize)
            let frame = try Self.screen(terminal)
            #expect(frame.rows == 12 && frame.cols == 40)
            #expect(frame.line(11).contains("Enter"))
            terminal.resize(rows: 3, cols: 10)
            await app.press(.resize)
            let frame10 = try Self.screen(terminal)
            #expect(frame10.text.contains("too small"))
        }
    }

    @Test("A viewer sees READ-ONLY; q quits on the home screen, Ctrl-C anywhere")
    func readOnlyAndQuit() async throws {
        try await Self.withConsole(role: .viewer) { app, terminal, _ in
            let frame11 = try Self.screen(terminal)
            #expect(frame11.line(0).contains("READ-ONLY"))
            await app.press(.enter)
            await app.press(.character("q"))
            #expect(!app.finished)  // q on a pushed screen is not quit
            await app.press(.escape)
            await app.press(.character("q"))
            #expect(app.finished)
        }
        try await Self.withConsole { app, _, _ in
            await app.press(.enter)
            await app.press(.control("c"))
            #expect(app.finished)
        }
    }

    @Test("One key table per screen: ? lists every key with who may use it; the footer offers, and a key runs, only what this operator may use now")
    func keyTable() async throws {
        try await Self.withConsole(role: .viewer) { app, terminal, store in
            let stuck = try #require(try await store.orders.page(OrderFilter(state: .verifyRetry), limit: 1).items.first)
            await app.command("order \(stuck.orderId)")
            let footer = try Self.screen(terminal).line(23)
            #expect(!footer.contains("grant") && footer.contains("receipt"), "\(footer)")
            await app.press(.character("g"))  // in the table, but not a viewer's: nothing opens
            #expect(!(try Self.screen(terminal).text.contains("Reason:")))
            await app.press(.character("?"))
            let help = try Self.screen(terminal).text
            #expect(help.contains("grant · support, admin (not your role)"), "\(help)")
            #expect(help.contains("settle dispute · support, admin (not here now)"), "\(help)")
            #expect(help.contains("receipt") && !help.contains("receipt ·"), "\(help)")
        }
        try await Self.withConsole(role: .support) { app, terminal, store in
            let stuck = try #require(try await store.orders.page(OrderFilter(state: .verifyRetry), limit: 1).items.first)
            await app.command("order \(stuck.orderId)")
            #expect(try Self.screen(terminal).line(23).contains("grant"))
            await app.press(.character("g"))
            #expect(try Self.screen(terminal).text.contains("Reason:"))
        }
    }

    @Test(
        "Jumps from what a screen names: o on an account opens what it owns, X on an order the x-ray of its purchase, w on a subscription its owner; Tab completes its id"
    )
    func jumps() async throws {
        try await Self.withConsole { app, terminal, store in
            let vip = try #require(try await store.orders.page(OrderFilter(state: .delivered, productId: "vip_monthly"), limit: 1).items.first)
            let otid = try #require(vip.originalTransactionId)
            let owner = try #require(try await store.subscriptions.detail(otid).subscription?.ownerAccount)
            await app.command("account \(owner)")
            await app.press(.character("o"))
            let owned = try Self.screen(terminal).line(2)
            #expect(owned.contains("Subscription \(otid)") || owned.contains("Subscriptions of \(owner)"), "\(owned)")
            await app.command("order \(vip.orderId)")
            await app.press(.character("X"))
            #expect(try Self.screen(terminal).line(2).contains("X-ray \(otid)"))
            await app.press(.character(":"))
            await app.type("sub \(otid.dropLast())")
            await app.press(.tab)
            await app.press(.enter)
            #expect(try Self.screen(terminal).line(2).contains("Subscription \(otid)"))
            await app.press(.character("w"))
            #expect(try Self.screen(terminal).line(2).contains("Account \(owner)"))
        }
    }

    @Test("The filter is kept when going back: open an order from a filtered list, Esc returns to the same filter and selection")
    func filterKeptGoingBack() async throws {
        try await Self.withConsole { app, terminal, _ in
            await app.press(.character("/"))
            await app.type("state:delivered")
            await app.press(.enter)
            await app.press(.down)
            let before = try Self.screen(terminal)
            await app.press(.enter)
            #expect(try Self.screen(terminal).line(2).contains("Order "))
            await app.press(.escape)
            let after = try Self.screen(terminal)
            #expect(after.line(2) == before.line(2) && after.line(2).contains("state:delivered"), "\(after.line(2))")
            #expect(after.text == before.text)
        }
    }

    @Test("Changes another operator makes appear on the next refresh, without a restart")
    func liveRefresh() async throws {
        try await Self.withConsole { app, terminal, store in
            try await store.orders.place(orderId: "ord_zz_new", accountId: "late", productId: "coins_60", at: .now() + 60_000)
            let frame12 = try Self.screen(terminal)
            #expect(!(frame12.text.contains("ord_zz_new")))
            await app.refresh()
            let frame13 = try Self.screen(terminal)
            #expect(frame13.line(4).contains("ord_zz_new"))
        }
    }

    @Test("Scrolled far down, the refresh reads the rows on screen again, not every row scrolled past; an order changed on screen shows")
    func refreshReadsWhatIsOnScreen() async throws {
        try await Self.withConsole { app, terminal, store in
            for _ in 0..<15 { await app.press(.pageDown) }  // about row 300: three pages loaded
            let orders = try #require(app.top as? OrdersScreen)
            let selected = try #require(orders.selectedOrder)
            #expect(orders.orders.count >= 300)
            // Another operator delivers an order on screen meanwhile.
            let onScreen = orders.orders[(orders.selected - 15)...orders.selected]
            let paid = try #require(
                onScreen.first { OrderPermissions.allowed(on: $0, role: .admin).contains(.grant) }, "an order an admin may grant, on screen")
            let actor = Operator(name: "bob", role: .admin)
            try await store.operators.add(name: "bob", role: .admin, by: actor)
            _ = try await store.orders.grant(orderId: paid.orderId, expectedVersion: paid.version, by: actor, reason: "ticket 7")
            await app.refresh()
            #expect(orders.selectedOrder?.orderId == selected.orderId, "the selection stays on its order")
            #expect(orders.orders.count <= orders.selected + 100 + 20, "read again from the screen's first row, a page: \(orders.orders.count)")
            #expect(orders.orders.first { $0.orderId == paid.orderId }?.state == .delivered)
            #expect(try terminal.screenText().contains(selected.orderId))
        }
    }

    @Test(":theme switches live; an unknown theme keeps the current one and says why")
    func theme() async throws {
        try await Self.withConsole { app, terminal, _ in
            await app.press(.character(":"))
            for c in "theme nosuch" { await app.press(.character(c)) }
            await app.press(.enter)
            let frame14 = try Self.screen(terminal)
            #expect(frame14.line(22).contains("no theme named"))
            #expect(app.session.theme == Theme.builtIn)
        }
    }
}
