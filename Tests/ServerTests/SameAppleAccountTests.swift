import Console
import Foundation
import OrderDomain
import OrderStore
import TestSupport
import Testing

extension AppleSide {
    /// One Apple Account, two game accounts: Apple's `appTransactionId` (in every signed
    /// transaction) ties them, as an R8 dispute and a refund request need to know.
    @Suite("Game accounts of the same Apple Account")
    struct SameAppleAccountTests {
        @Test(
            "The account screen names the other game accounts the Apple Account bought with, and / finds every order of that Apple Account by its appTransactionId",
            arguments: Backend.all)
        func sameAppleAccount(backend: Backend) async throws {
            try await IntakeTests.withServe(backend, serverAPI: true) { serve in
                _ = try await NotificationTests.delivered(
                    "aa-1", product: "coins_60", kind: .consumable, account: "acct-main", appleId: "one@icloud", in: serve)
                _ = try await NotificationTests.delivered(
                    "aa-2", product: "no_ads", kind: .nonConsumable, account: "acct-alt", appleId: "one@icloud", in: serve)
                _ = try await NotificationTests.delivered(
                    "aa-3", product: "coins_60", kind: .consumable, account: "acct-else", appleId: "two@icloud", in: serve)

                let vip = try await NotificationTests.delivered(
                    "aa-4", product: "vip_monthly", kind: .autoRenewable, account: "acct-main", appleId: "one@icloud", in: serve)
                let subscription = try await serve.store.subscriptions.detail(vip.originalTransactionId)
                #expect(subscription.appleAccountPlayers.map(\.accountId) == ["acct-alt", "acct-main"], "the dispute's question: one player?")

                let main = try await serve.store.accounts.detail("acct-main")
                #expect(main.sameAppleAccount.map(\.accountId) == ["acct-alt"], "not acct-else: another Apple Account")
                let appTransactionId = try #require(try await serve.store.orders.detail("aa-1").transactions.first?.transaction.appTransactionId)
                #expect(Set(try await serve.store.orders.lookup(appTransactionId).map(\.orderId)) == ["aa-1", "aa-2", "aa-4"])

                let terminal = MemoryTerminal()
                let app = ConsoleApp(
                    session: ConsoleSession(store: serve.store, actor: Operator(name: "lin", role: .support), storeLabel: "t"), device: terminal)
                await app.open()
                await app.command("account acct-main")
                let screen = try terminal.screenText()
                #expect(screen.contains("Same Apple Account as") && screen.contains("acct-alt") && !screen.contains("acct-else"), "\(screen)")
                await app.command("subscription \(vip.originalTransactionId)")
                let claimed = try terminal.screenText()
                #expect(claimed.contains("Apple Account") && claimed.contains("the same one bought for acct-alt, acct-main"), "\(claimed)")
                await app.command("orders")
                await app.press(.character("/"))
                await app.type("atid:\(appTransactionId)")
                await app.press(.enter)
                let found = try terminal.screenText()
                #expect(found.contains("aa-1") && found.contains("aa-2") && found.contains("aa-4") && !found.contains("aa-3"), "\(found)")
            }
        }
    }
}
