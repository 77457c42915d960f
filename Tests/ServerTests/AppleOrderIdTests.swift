import AppStoreSimulator
import Console
import Foundation
import OrderDomain
import OrderStore
import TestSupport
import Testing

extension AppleSide {
    /// A player's ticket quotes Apple's order id (`MK…`, from Apple's emailed receipt). It is
    /// asked of Look Up Order ID, Apple's signed transactions are kept, and each purchase leads
    /// somewhere: the order that claimed it, the order that was waiting for it, or an orphan.
    /// Both backends, the simulator as Apple, set up in the order life has them: the game
    /// places its order, the player pays at Apple, the game's receipt never arrives.
    @Suite("Finding an order by Apple's order id")
    struct AppleOrderIdTests {
        actor Calls {
            var count = 0
            func add() { count += 1 }
        }

        @Test(
            "An MK… id finds the order through Look Up Order ID, the next search needs no call, an id Apple does not know says so, and :order MK… and /MK… find it in the console",
            arguments: Backend.all)
        func find(backend: Backend) async throws {
            try await IntakeTests.withServe(backend, serverAPI: true) { serve in
                let coins = try await NotificationTests.delivered(
                    "mk-1", product: "coins_980", kind: .consumable, account: "acct-mk", appleId: "mk@icloud", in: serve)
                let invoice = coins.appleOrderId
                #expect(Orders.looksLikeAppleOrderId(invoice), "\(invoice)")
                #expect(try await serve.store.orders.lookup(invoice).isEmpty, "the store has never heard the id")

                let client = try #require(serve.verifier.serverAPI)
                let calls = Calls()
                let found = try await serve.store.orders.findAppleOrder(invoice) {
                    await calls.add()
                    return await client.invoice($0, environment: $1)
                }
                #expect(found.invoice?.orders.map(\.orderId) == ["mk-1"])
                let again = try await serve.store.orders.findAppleOrder(invoice) { _, _ in
                    await calls.add()
                    return .failed("not asked")
                }
                let asked = await calls.count
                #expect(again.invoice?.orders.map(\.orderId) == ["mk-1"] && asked == 1, "kept: the second search asks Apple nothing")
                let unknown = try await serve.store.orders.findAppleOrder("MZZZZZZZZZZ") { await client.invoice($0, environment: $1) }
                #expect(unknown == .unknownToApple(appleOrderId: "MZZZZZZZZZZ"))

                let (app, terminal) = await Self.console(serve)
                await app.command("order \(invoice)")
                #expect(try terminal.screenText().contains("Order mk-1"))
                await app.press(.escape)
                await app.press(.character("/"))
                await app.type(invoice)
                await app.press(.enter)
                let filtered = try terminal.screenText()
                #expect(filtered.contains("mk-1") && filtered.contains("Orders [\(invoice)]"), "\(filtered)")
            }
        }

        @Test(
            "A purchase whose receipt never reached the game: its MK… id leads to the order waiting for it (by its appAccountToken, or the account's open order for the product), Apple's signed transaction is kept, and A on the invoice attaches it with the order filled in",
            arguments: Backend.all)
        func waitingOrder(backend: Backend) async throws {
            try await IntakeTests.withServe(backend, serverAPI: true) { serve in
                // An earlier purchase tells the store which game account plays this Apple Account.
                _ = try await NotificationTests.delivered(
                    "w-0", product: "coins_60", kind: .consumable, account: "acct-w", appleId: "w@icloud", in: serve)
                // The game places an order; the player pays with the order's id as token; the
                // receipt never reaches the game server.
                #expect(try await serve.call(.POST, "/v1/orders", json: #"{"order_id":"w-1","account_id":"acct-w","product_id":"coins_980"}"#).status == 201)
                let paid = await serve.simulator.ledger.purchase(appleId: "w@icloud", productId: "coins_980", appAccountToken: "w-1")
                // A second one without a token (an older client): the account's open order.
                #expect(try await serve.call(.POST, "/v1/orders", json: #"{"order_id":"w-2","account_id":"acct-w","product_id":"coins_300"}"#).status == 201)
                let untokened = await serve.simulator.ledger.purchase(appleId: "w@icloud", productId: "coins_300")

                let client = try #require(serve.verifier.serverAPI)
                let byToken = try #require(
                    try await serve.store.orders.findAppleOrder(paid.appleOrderId) { await client.invoice($0, environment: $1) }.invoice)
                let first = try #require(byToken.purchases.first)
                #expect(first.lead.order?.orderId == "w-1" && first.lead == .waiting(try #require(first.lead.order), .appAccountToken), "\(first.lead)")
                #expect(first.transaction.transaction.appAccountToken == "w-1" && first.transaction.orderId == nil, "Apple's transaction is kept, unclaimed")
                let byAccount = try #require(
                    try await serve.store.orders.findAppleOrder(untokened.appleOrderId) { await client.invoice($0, environment: $1) }.invoice)
                #expect(byAccount.purchases.first.map { if case .waiting(let o, .openOrder) = $0.lead { o.orderId == "w-2" } else { false } } == true)

                // Support: `:order MK…` opens the invoice; A attaches with w-1 filled in, the reason is all that is typed.
                let (app, terminal) = await Self.console(serve)
                await app.command("order \(paid.appleOrderId)")
                let screen = try terminal.screenText()
                #expect(screen.contains("Apple order \(paid.appleOrderId)") && screen.contains("waiting: order w-1"), "\(screen)")
                await app.press(.character("A"))
                await app.type("player's receipt email, paid at Apple")
                await app.press(.enter)
                let afterAttach = try terminal.screenText()
                #expect(try await serve.store.orders.find("w-1")?.state == .delivered, "\(afterAttach)")
                #expect(try await serve.store.orders.find("w-1")?.transactionId == paid.transactionId)
                await app.command("order \(paid.appleOrderId)")
                #expect(try terminal.screenText().contains("Order w-1"), "claimed now: the id opens the order")
            }
        }

        @Test(
            "An MK… id whose purchase no order claims or waits for shows it as an orphan to attach, and while Apple does not answer the console and the command line say so and never 'nothing matches'",
            arguments: Backend.all)
        func orphanAndDeadApple(backend: Backend) async throws {
            try await IntakeTests.withServe(backend, serverAPI: true) { serve in
                let stranger = await serve.simulator.ledger.purchase(appleId: "nobody@icloud", productId: "no_ads")
                let (app, terminal) = await Self.console(serve)

                await serve.simulator.faults.set(FaultProfile(faults: [.init(.http(503))]))
                await app.command("order \(stranger.appleOrderId)")
                let down = try terminal.screenText()
                #expect(down.contains("Apple did not answer") && down.contains("try again"), "\(down)")
                #expect(!down.localizedCaseInsensitiveContains("nothing matches"))
                await app.press(.character("/"))
                await app.type(stranger.appleOrderId)
                await app.press(.enter)
                #expect(try terminal.screenText().contains("Apple did not answer"), "the filter shares the lookup")
                await app.press(.escape)

                await serve.simulator.faults.set(.none)
                await app.command("order \(stranger.appleOrderId)")
                let orphan = try terminal.screenText()
                #expect(orphan.contains("orphan: no order claims or waits for it"), "\(orphan)")
                let listed = try await serve.store.orders.orphans()
                #expect(listed.contains { $0.transaction.transactionId == stranger.transactionId }, "and it is on :orphans")
            }
        }

        static func console(_ serve: IntakeTests.Running) async -> (ConsoleApp, MemoryTerminal) {
            let terminal = MemoryTerminal(rows: 30, cols: 120)
            let app = ConsoleApp(
                session: ConsoleSession(
                    store: serve.store, actor: Operator(name: "lin", role: .support), storeLabel: "t", appleActions: serve.verifier.serverAPI),
                device: terminal)
            await app.open()
            return (app, terminal)
        }
    }
}
