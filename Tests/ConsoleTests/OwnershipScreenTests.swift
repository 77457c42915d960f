import Foundation
import OrderStore
import Terminal
import Testing
@testable import Console

/// Disputes, subscriptions, accounts, orphans and the audit log, on a seeded store.
@Suite("Ownership and log screens")
struct OwnershipScreenTests {
    static func type(_ app: ConsoleApp, _ text: String) async {
        for c in text { await app.press(.character(c)) }
    }

    static func command(_ app: ConsoleApp, _ text: String) async {
        await app.press(.character(":"))
        await type(app, text)
        await app.press(.enter)
    }

    static func text(_ terminal: MemoryTerminal) throws -> String { try #require(terminal.lastFrame).text }

    @Test("A dispute: :disputes lists it, Enter shows the subscription with the R8 verdict, t transfers it with a reason, :audit shows that")
    func transfer() async throws {
        try await ConsoleTests.withConsole(rows: 30, cols: 100) { app, terminal, store in
            await Self.command(app, "disputes")
            let list = try Self.text(terminal)
            #expect(list.contains("Disputes (R8 decisions to review)"))
            let event = try #require(try await store.disputes(limit: 1).first)
            await app.press(.enter)
            var frame = try Self.text(terminal)
            #expect(frame.contains("Subscription \(event.originalTransactionId)"))
            #expect(frame.contains("R8 verdict"))
            #expect(frame.contains("Owner history"))
            await app.press(.character("t"))
            #expect(try Self.text(terminal).contains("To account:"))
            let owner = try #require(try await store.subscription(event.originalTransactionId).subscription?.ownerAccount)
            await Self.type(app, owner)
            await app.press(.tab)
            await Self.type(app, "x")
            await app.press(.enter)
            #expect(try Self.text(terminal).contains("already owns"))  // refused in the dialog, nothing changed
            await app.press(.backTab)
            for _ in owner { await app.press(.backspace) }
            let newOwner = "support-chosen-account"
            await Self.type(app, newOwner)
            await app.press(.tab)
            await app.press(.backspace)
            await Self.type(app, "ticket 9: the player proved the Apple ID is theirs")
            await app.press(.enter)
            frame = try Self.text(terminal)
            #expect(frame.contains("now belongs to \(newOwner)"))
            #expect(try await store.subscription(event.originalTransactionId).subscription?.ownerAccount == newOwner)
            await Self.command(app, "audit")
            frame = try Self.text(terminal)
            #expect(frame.contains("Audit log"))
            #expect(frame.contains("ticket 9"))
            #expect(frame.contains("alice"))
        }
    }

    @Test("d on a disputed order settles it for the submitter; the order is delivered")
    func settle() async throws {
        try await ConsoleTests.withConsole(rows: 30, cols: 100) { app, terminal, store in
            // A owns a renewing subscription; B submits its renewal: R8 disputes B's order.
            let t0 = Millis.now() - .minutes(30)
            func report(_ id: String) -> VerificationReport {
                let renewal = AppleTransaction(transactionId: id, originalTransactionId: "otid-1", productId: "vip_monthly", purchaseDate: t0 + 60_000,
                                               expiresDate: t0 + .hours(700))
                return VerificationReport(environment: .production, appleStatus: 0, content: AppleReceiptContent(
                    bundleId: DemoCatalogue.bundleId, inApp: [renewal],
                    pendingRenewals: [AppleRenewalInfo(originalTransactionId: "otid-1", productId: "vip_monthly", autoRenewEnabled: true)]))
            }
            for (order, account, tid) in [("sub-a", "A", "otid-1"), ("sub-b", "B", "renewal-2")] {
                try await store.placeOrder(orderId: order, accountId: account, productId: "vip_monthly", at: t0)
                let submission = try await store.submitReceipt(orderId: order, receiptData: "r", claimedTransactionId: tid, at: t0 + 1000)
                try await store.applyVerification(orderId: order, submissionId: submission, report: report(tid))
            }
            #expect(try await store.order("sub-b")?.state == .disputed)
            await Self.command(app, "order sub-b")
            #expect(try Self.text(terminal).contains("d  settle dispute"))
            await app.press(.character("d"))
            await Self.type(app, "nobody")
            await app.press(.tab)
            await Self.type(app, "ticket 10")
            await app.press(.enter)
            #expect(try Self.text(terminal).contains("favor is owner or submitter"))
            await app.press(.backTab)
            for _ in 0..<6 { await app.press(.backspace) }
            await Self.type(app, "submitter")
            await app.press(.enter)
            #expect(try Self.text(terminal).contains("now delivered"))
            #expect(try await store.order("sub-b")?.state == .delivered)
        }
    }

    @Test(":orphans and :account open; a and o from an order open its account and subscription")
    func otherScreens() async throws {
        try await ConsoleTests.withConsole(rows: 30, cols: 100) { app, terminal, store in
            await Self.command(app, "orphans")
            #expect(try Self.text(terminal).contains("Orphans"))
            let sub = try #require(try await store.orders(OrderFilter(state: .delivered, productId: "vip_monthly"), limit: 1).items.first)
            await Self.command(app, "order \(sub.orderId)")
            await app.press(.character("a"))
            #expect(try Self.text(terminal).contains("Account \(sub.accountId)"))
            #expect(try Self.text(terminal).contains("Grants"))
            // Enter lists the account's orders as a table; Enter there opens one, Esc comes back.
            await app.press(.enter)
            let accountOrders = try Self.text(terminal)
            #expect(accountOrders.contains("Orders [acct:\(sub.accountId)]") && accountOrders.contains(sub.orderId), "\(accountOrders)")
            await app.press(.escape)
            #expect(try Self.text(terminal).contains("Account \(sub.accountId)"))
            await app.press(.escape)
            await app.press(.character("o"))
            let otid = try #require(sub.originalTransactionId)
            #expect(try Self.text(terminal).contains("Subscription \(otid)"))
            await app.press(.enter)
            let claimed = try Self.text(terminal)
            #expect(claimed.contains("Orders [otid:\(otid)]") && claimed.contains(sub.orderId), "\(claimed)")
            await app.press(.enter)
            #expect(try Self.text(terminal).contains("Timeline"))
        }
    }

    @Test(":orphans, A attaches the selected orphan to the order it paid for; a wrong order id is refused in the dialog")
    func attachOrphan() async throws {
        try await ConsoleTests.withConsole(rows: 30, cols: 100) { app, terminal, store in
            // A receipt for one order that also shows a purchase no order claims: an orphan.
            let t0 = Millis.now() - 120_000
            try await store.placeOrder(orderId: "ord_paid", accountId: "p-attach", productId: "coins_60", at: t0)
            let submission = try await store.submitReceipt(orderId: "ord_paid", receiptData: "r", claimedTransactionId: "tx-paid", at: t0 + 1000)
            let paid = AppleTransaction(transactionId: "tx-paid", originalTransactionId: "tx-paid", productId: "coins_60", purchaseDate: t0 + 500)
            let stray = AppleTransaction(transactionId: "tx-stray", originalTransactionId: "tx-stray", productId: "coins_300", purchaseDate: t0 + 600)
            try await store.applyVerification(orderId: "ord_paid", submissionId: submission, report: VerificationReport(
                environment: .production, appleStatus: 0, content: AppleReceiptContent(bundleId: DemoCatalogue.bundleId, inApp: [paid, stray])))
            let orphan = try #require(try await store.orphans(limit: 1).first)
            #expect(orphan.transaction.transactionId == "tx-stray")
            try await store.placeOrder(orderId: "ord_for_orphan", accountId: "p-attach", productId: orphan.transaction.productId, at: t0)
            await Self.command(app, "orphans")
            #expect(try Self.text(terminal).contains("A  attach to order"))
            await app.press(.character("A"))
            #expect(try Self.text(terminal).contains("Attach transaction \(orphan.transaction.transactionId)"))
            await Self.type(app, "nosuch")
            await app.press(.tab)
            await Self.type(app, "ticket 11: the player sent the Apple invoice")
            await app.press(.enter)
            #expect(try Self.text(terminal).contains("no order nosuch"))
            await app.press(.backTab)
            for _ in 0..<6 { await app.press(.backspace) }
            await Self.type(app, "ord_for_orphan")
            await app.press(.enter)
            #expect(try Self.text(terminal).contains("attached to ord_for_orphan"))
            #expect(try await store.order("ord_for_orphan")?.transactionId == orphan.transaction.transactionId)
        }
    }
}
