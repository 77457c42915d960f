import Foundation
import OrderDomain
import OrderStore
import SyntheticData
import Terminal
import TestSupport
import Testing

@testable import Console

/// Grant, revoke and re-verify from the console: dialogs with a required reason, the store
/// refusing what changed meanwhile, background work that never freezes the screen.
@Suite("Console actions")
struct ActionTests {
    /// Apple as a test plays it: answers after `delay`, valid for the orders it knows.
    struct ScriptedApple: ReceiptVerifier {
        var delay: Duration = .zero
        var valid = true

        func verify(_ evidence: PurchaseEvidence, claimedTransactionId: String?) async -> VerificationReport {
            try? await Task.sleep(for: delay)
            guard valid, let id = claimedTransactionId else {
                return VerificationReport(environment: .production, appleStatus: 21005, latencyMs: 5)
            }
            let productId = (try? evidence.storedText) ?? ""  // the tests store the product id as the "receipt"
            let transaction = AppleTransaction(transactionId: id, originalTransactionId: id, productId: productId, purchaseDate: .now())
            return VerificationReport(
                environment: .production, appleStatus: 0, latencyMs: 5,
                content: AppleReceiptContent(bundleId: DemoCatalogue.bundleId, inApp: [transaction]))
        }
    }

    static func withApp(
        role: Role = .support, apple: ScriptedApple = ScriptedApple(), paid: Int = 3,
        _ body: (ConsoleApp, MemoryTerminal, OrderStore) async throws -> Void
    ) async throws {
        try await withTemporaryStore { store in
            for product in DemoCatalogue.products { try await store.catalogue.upsert(product) }
            for i in 1...paid {
                try await store.orders.place(orderId: "paid_\(i)", accountId: "acct_\(i)", productId: "coins_60", at: .now() - .minutes(30))
                try await store.orders.submit(
                    orderId: "paid_\(i)", receiptData: "coins_60", claimedTransactionId: "\(9_000_000 + i)", at: .now() - .minutes(29))
            }
            let terminal = MemoryTerminal()
            let session = ConsoleSession(store: store, actor: Operator(name: "alice", role: role), storeLabel: "t", verifier: apple)
            let app = ConsoleApp(session: session, device: terminal)
            await app.open()
            try await body(app, terminal, store)
        }
    }

    @Test("Grant opens a dialog that needs a reason, then delivers once and audits it")
    func grant() async throws {
        try await Self.withApp { app, terminal, store in
            await app.command("order paid_1")
            #expect(try terminal.screenText().contains(" g  grant"))
            await app.press(.character("g"))
            let dialog = try terminal.screenText()
            #expect(dialog.contains("Grant paid_1"))
            // Framed, so the screen beneath reads as beneath; one field, so no Tab hint.
            #expect(dialog.contains("┌─") && dialog.contains("─┘") && dialog.contains("│"), "\(dialog)")
            #expect(dialog.contains("Esc cancel") && !dialog.contains("Tab next field"), "\(dialog)")
            await app.press(.enter)
            #expect(try terminal.screenText().contains("a reason is required"))
            await app.type("ticket 42: paid, Apple timed out")
            await app.press(.enter)
            let after = try terminal.screenText()
            #expect(after.contains("granted paid_1: now delivered"))
            #expect(after.contains("Order paid_1 · delivered"))
            let detail = try await store.orders.detail("paid_1")
            #expect(detail.grants.count == 1)
            #expect(detail.audit.contains { $0.action == .grant && $0.actor == "alice" && $0.reason == "ticket 42: paid, Apple timed out" })
        }
    }

    @Test(
        "n writes a note on the order: an empty note is refused in the dialog, a saved one shows on the order with its author, and on the account the same way")
    func note() async throws {
        try await Self.withApp { app, terminal, store in
            await app.command("order paid_1")
            await app.press(.character("n"))
            #expect(try terminal.screenText().contains("Note on order paid_1"))
            await app.press(.enter)
            #expect(try terminal.screenText().contains("Note is required"))
            await app.type("player sent a bank statement, ticket 881")
            await app.press(.enter)
            let order = try terminal.screenText()
            #expect(
                order.contains("note saved on order paid_1") && order.contains("Notes") && order.contains("alice: player sent a bank statement"), "\(order)")
            await app.press(.character("a"))
            await app.press(.character("n"))
            await app.type("same player as acct_2")
            await app.press(.enter)
            #expect(try terminal.screenText().contains("alice: same player as acct_2"))
            #expect(try await store.notes.list(on: .account("acct_1")).map(\.author) == ["alice"])
        }
    }

    @Test(":export saves a list as CSV and a page as text, owner-only, and never over an existing file")
    func export() async throws {
        try await Self.withApp { app, terminal, _ in
            let folder = Scratch.url("iapdesk-export-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let list = folder.appendingPathComponent("orders.csv").path, page = folder.appendingPathComponent("paid_1.txt").path
            await app.command("export \(list)")
            #expect(try terminal.screenText().contains("saved 3 rows to"))
            let csv = try String(contentsOfFile: list, encoding: .utf8).split(separator: "\n").map(String.init)
            #expect(
                csv.first == "ORDER,ACCOUNT,PRODUCT,STATE,ENV,TRANSACTION,CREATED" && csv.count == 4 && csv.contains { $0.hasPrefix("paid_2,acct_2,coins_60,") }
            )
            let mode = try FileManager.default.attributesOfItem(atPath: list)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            await app.command("export \(list)")
            #expect(try terminal.screenText().contains("not saved: a file is there already"))
            await app.command("order paid_1")
            await app.command("export \(page)")
            #expect(try String(contentsOfFile: page, encoding: .utf8).contains("paid_1"))
        }
    }

    @Test("Tab completes a command and an order id in the : prompt; an alias opens the orders filtered, or runs its :command, and ? lists it")
    func paletteAndAliases() async throws {
        try await Self.withApp { app, terminal, _ in
            app.session.aliases = ["retrying": "state:receipt_received acct:acct_2", "q3": ":stuck"]
            await app.press(.character(":"))
            await app.type("o")
            // As you type, the footer says what the command may become.
            let typing = try #require(terminal.lastFrame).line(23)
            #expect(typing.contains("Tab") && typing.contains("orders") && typing.contains("orphans"), "\(typing)")
            await app.press(.control("u"))
            await app.type("stu")
            await app.press(.tab)
            let completed = try terminal.screenText()
            #expect(completed.contains(":stuck "), "\(completed)")
            await app.press(.control("u"))
            await app.type("order paid_")
            await app.press(.tab)
            #expect(try terminal.screenText().contains(":order paid_"), "three orders share paid_: the completion stops there")
            await app.type("3")
            await app.press(.tab)
            await app.press(.enter)
            #expect(try terminal.screenText().contains("Order paid_3"))
            // An account id after :account, likewise.
            await app.press(.character(":"))
            await app.type("acct acct_")
            await app.press(.tab)
            #expect(try terminal.screenText().contains(":acct acct_"), "three accounts share acct_")
            await app.type("1")
            await app.press(.tab)
            await app.press(.enter)
            #expect(try terminal.screenText().contains("Account acct_1"))

            await app.command("retrying")
            let filtered = try terminal.screenText()
            #expect(filtered.contains("paid_2") && !filtered.contains("paid_1") && filtered.contains(":retrying is state:receipt_received"), "\(filtered)")
            await app.command("q3")
            #expect(try terminal.screenText().contains("Stuck ["))
            await app.press(.character("?"))
            await app.press(.end)  // the aliases come last
            #expect(try terminal.screenText().contains(":retrying"))
        }
    }

    @Test("If someone delivered the order while the dialog was open, the dialog says who, and nothing is granted twice")
    func conflict() async throws {
        try await Self.withApp { app, terminal, store in
            await app.command("order paid_2")
            await app.press(.character("g"))
            await app.type("ticket 7")
            let order = try #require(try await store.orders.find("paid_2"))
            try await store.orders.grant(orderId: "paid_2", expectedVersion: order.version, by: Operator(name: "bob", role: .support), reason: "same ticket")
            await app.press(.enter)
            let frame = try terminal.screenText()
            #expect(frame.contains("Grant paid_2"))  // still open, showing the refusal
            #expect(frame.contains("bob"))
            #expect(try await store.orders.detail("paid_2").grants.count == 1)
            await app.press(.escape)
            #expect(!(try terminal.screenText()).contains("Grant paid_2"))
        }
    }

    @Test("A viewer is offered no actions, and the keys do nothing")
    func viewer() async throws {
        try await Self.withApp(role: .viewer) { app, terminal, store in
            await app.command("order paid_1")
            let frame = try terminal.screenText()
            #expect(!frame.contains("grant") && !frame.contains("re-verify"))
            await app.press(.character("g"))
            await app.press(.character("r"))
            #expect(!(try terminal.screenText()).contains("Grant paid_1"))
            #expect(app.job == nil)
            #expect(try await store.orders.detail("paid_1").grants.isEmpty)
        }
    }

    @Test(
        "A replayed receipt (R7): the order says which order holds the purchase; only an admin may grant it, warned first", arguments: [Role.support, .admin])
    func replay(role: Role) async throws {
        try await Self.withApp(role: role) { app, terminal, store in
            // Account 9 sends the receipt that already paid for paid_1 of account 1.
            try await store.orders.place(orderId: "replay_1", accountId: "acct_9", productId: "coins_60", at: .now() - .minutes(5))
            try await store.orders.submit(orderId: "replay_1", receiptData: "coins_60", claimedTransactionId: "9000001")
            _ = try await store.apple.reverify(orderId: "paid_1", using: ScriptedApple())
            let replayed = try await store.apple.reverify(orderId: "replay_1", using: ScriptedApple())
            #expect(replayed.order.state == .rejected && replayed.order.replayFlag)

            await app.command("order replay_1")
            let detail = try terminal.screenText()
            #expect(detail.contains("REPLAY") && detail.contains("paid_1"), "\(detail)")
            await app.press(.character("a"))
            let account = try terminal.screenText()
            #expect(account.contains("replay  order replay_1"))
            #expect(account.contains("replay_1        coins_60     rejected REPLAY"), "the account's order list marks it: \(account)")
            await app.press(.escape)
            // h goes to the order that holds the purchase, without typing its id.
            #expect(try terminal.screenText().contains("held by      order paid_1 holds this purchase"))
            await app.press(.character("h"))
            #expect(try terminal.screenText().contains("Order paid_1 · delivered"))
            await app.press(.escape)

            await app.press(.character("g"))
            let offered = try terminal.screenText()
            if role == .admin {
                #expect(offered.contains("Grant replay_1") && offered.contains("WARNING: rejected as a replay"), "\(offered)")
                await app.press(.escape)
            } else {
                #expect(!offered.contains("Grant replay_1") && !offered.contains(" g  grant"))
            }
            #expect(try await store.orders.find("replay_1")?.state == .rejected)
        }
    }

    @Test("Re-verify runs in the background with a spinner; keys keep working; the outcome is shown")
    func reverifyInBackground() async throws {
        try await Self.withApp(apple: ScriptedApple(delay: .milliseconds(300))) { app, terminal, store in
            await app.press(.character("r"))  // on the selected (newest) order of the home list
            #expect(try terminal.screenText().contains("re-verifying paid_"))
            await app.press(.down)  // the screen still answers
            #expect(app.job != nil)
            await app.press(.character("r"))  // one job at a time: the second is refused, not started
            #expect(try terminal.screenText().contains("still running"))
            await app.settle()
            let frame = try terminal.screenText()
            #expect(frame.contains("status 0 (valid) → delivered"), "\(frame)")
            let attempted = try await (1...3).asyncFlatMap { try await store.orders.detail("paid_\($0)").attempts }
            #expect(attempted.count == 1)
        }
    }

    @Test("The order screen shows the store's verdict on Apple's answer (the picked transaction, the checks) and its timeline newest first")
    func verdictOnOrderScreen() async throws {
        try await Self.withApp { app, terminal, store in
            let outcome = try await store.apple.reverify(orderId: "paid_1", using: ScriptedApple())
            #expect(outcome.order.state == .delivered && !outcome.checks.isEmpty)
            await app.command("order paid_1")
            let screen = try terminal.screenText()
            #expect(screen.contains("Verdict") && screen.contains("valid → delivered"), "\(screen)")
            #expect(screen.contains("picked transaction 9000001"), "\(screen)")
            #expect(screen.contains("✓ \(outcome.checks.count) checks passed"), "\(screen)")
            // Newest first: the delivery's audit entry comes before the verification's, and the
            // order being placed is at the end.
            let delivered = try #require(screen.range(of: "deliver by system")), verified = try #require(screen.range(of: "verify.valid by system"))
            #expect(delivered.lowerBound < verified.lowerBound, "\(screen)")
            #expect(!screen.contains("order placed"))
            await app.press(.end)
            #expect(try terminal.screenText().contains("order placed"))
            // One line up from the end moves one line: the oldest line leaves the bottom.
            await app.press(.up)
            #expect(!(try terminal.screenText().contains("order placed")))
        }
    }

    @Test(":stuck lists the queue; R re-verifies it with a progress bar; Esc stops new calls")
    func bulk() async throws {
        try await Self.withApp(apple: ScriptedApple(delay: .milliseconds(200), valid: false), paid: 20) { app, terminal, store in
            await app.command("stuck")
            #expect(try terminal.screenText().contains("Stuck [20]"))
            await app.press(.character("R"))
            try await Task.sleep(for: .milliseconds(250))
            await app.tick()
            #expect(try terminal.screenText().contains("/20 · Esc cancels"))
            await app.press(.escape)
            await app.settle()
            let frame = try terminal.screenText()
            #expect(frame.contains("stopped at"), "\(frame)")
            let retrying = try await store.orders.page(OrderFilter(state: .verifyRetry), limit: 100).items.count
            #expect(retrying >= 8 && retrying < 20)
        }
    }
}

extension ClosedRange<Int> {
    func asyncFlatMap<T>(_ transform: (Int) async throws -> [T]) async rethrows -> [T] {
        var all: [T] = []
        for value in self { all += try await transform(value) }
        return all
    }
}
