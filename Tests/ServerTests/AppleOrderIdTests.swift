import Console
import Foundation
import OrderStore
import TestSupport
import Testing

extension AppleSide {
    /// A player's ticket quotes Apple's order id (`MK…`, from Apple's emailed receipt): it is
    /// asked of Look Up Order ID, leads to the orders that claimed its purchases, and is kept
    /// for the next search (issue 31). Both backends, the simulator as Apple.
    @Suite("Finding an order by Apple's order id")
    struct AppleOrderIdTests {
        actor Calls {
            var count = 0
            func add() { count += 1 }
        }

        @Test(
            "An MK… id finds the order through Look Up Order ID, the next search needs no call, an id Apple does not know finds nothing, and :order MK… and /MK… find it in the console",
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
                let found = try await serve.store.orders.withAppleOrderId(invoice) {
                    await calls.add()
                    return await client.transactionIds(ofAppleOrder: $0, environment: $1)
                }
                #expect(found.map(\.orderId) == ["mk-1"])
                let again = try await serve.store.orders.withAppleOrderId(invoice) { _, _ in
                    await calls.add()
                    return nil
                }
                let asked = await calls.count
                #expect(again.map(\.orderId) == ["mk-1"] && asked == 1, "kept: the second search asks Apple nothing")
                #expect(
                    try await serve.store.orders.withAppleOrderId("MZZZZZZZZZZ") { await client.transactionIds(ofAppleOrder: $0, environment: $1) }
                        .isEmpty)

                let terminal = MemoryTerminal()
                let app = ConsoleApp(
                    session: ConsoleSession(
                        store: serve.store, actor: Operator(name: "lin", role: .support), storeLabel: "t", appleActions: serve.verifier.serverAPI),
                    device: terminal)
                await app.open()
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
    }
}
