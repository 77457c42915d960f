import Foundation
import OrderDomain
import OrderStore
import SyntheticData
import Terminal
import TestSupport
import Testing

@testable import Console

/// Disputes, subscriptions, accounts, orphans and the audit log, on a seeded store.
@Suite("Ownership and log screens")
struct OwnershipScreenTests {
    @Test("A dispute: :disputes lists it, Enter shows the subscription with the R8 verdict, t transfers it with a reason, :audit shows that")
    func transfer() async throws {
        try await ConsoleTests.withConsole(rows: 30, cols: 100) { app, terminal, store in
            await app.command("disputes")
            let list = try terminal.screenText()
            #expect(list.contains("Disputes (R8 decisions to review)"))
            let event = try #require(try await store.subscriptions.disputes(limit: 1).first?.event)
            await app.press(.enter)
            var frame = try terminal.screenText()
            #expect(frame.contains("Subscription \(event.originalTransactionId)"))
            #expect(frame.contains("R8 verdict"))
            #expect(frame.contains("Owner history"))
            await app.press(.character("t"))
            #expect(try terminal.screenText().contains("To account:"))
            let owner = try #require(try await store.subscriptions.detail(event.originalTransactionId).subscription?.ownerAccount)
            await app.type(owner)
            await app.press(.tab)
            await app.type("x")
            await app.press(.enter)
            #expect(try terminal.screenText().contains("already owns"))  // refused in the dialog, nothing changed
            await app.press(.backTab)
            for _ in owner { await app.press(.backspace) }
            let newOwner = "support-chosen-account"
            await app.type(newOwner)
            await app.press(.tab)
            await app.press(.backspace)
            await app.type("ticket 9: the player proved the Apple ID is theirs")
            await app.press(.enter)
            frame = try terminal.screenText()
            #expect(frame.contains("now belongs to \(newOwner)"))
            #expect(try await store.subscriptions.detail(event.originalTransactionId).subscription?.ownerAccount == newOwner)
            await app.command("audit")
            frame = try terminal.screenText()
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
                let renewal = AppleTransaction(
                    transactionId: id, originalTransactionId: "otid-1", productId: "vip_monthly", purchaseDate: t0 + 60_000,
                    expiresDate: t0 + .hours(700))
                return VerificationReport(
                    environment: .production, appleStatus: 0,
                    content: AppleReceiptContent(
                        bundleId: DemoCatalogue.bundleId, inApp: [renewal],
                        pendingRenewals: [AppleRenewalInfo(originalTransactionId: "otid-1", productId: "vip_monthly", autoRenewEnabled: true)]))
            }
            for (order, account, tid) in [("sub-a", "A", "otid-1"), ("sub-b", "B", "renewal-2")] {
                try await store.orders.place(orderId: order, accountId: account, productId: "vip_monthly", at: t0)
                let submission = try await store.orders.submit(orderId: order, receiptData: "r", claimedTransactionId: tid, at: t0 + 1000)
                try await store.apple.apply(orderId: order, submissionId: submission, report: report(tid))
            }
            #expect(try await store.orders.find("sub-b")?.state == .disputed)
            await app.command("order sub-b")
            #expect(try terminal.screenText().contains("d  settle dispute"))
            // At 80 columns the keys every screen has give way; the one that resolves this stays.
            terminal.resize(rows: 24, cols: 80)
            await app.press(.resize)
            let narrow = try ConsoleTests.screen(terminal)
            #expect(narrow.line(23).contains("d  settle dispute") && narrow.line(23).contains("r  re-verify"), "\(narrow.line(23))")
            terminal.resize(rows: 30, cols: 100)
            await app.press(.resize)
            // Both accounts of the dispute: a is the submitter's (B), w the owner's (A).
            #expect(try terminal.screenText().contains("owner        A owns the subscription; B submitted this renewal"))
            await app.press(.character("w"))
            #expect(try terminal.screenText().contains("Account A"))
            await app.press(.escape)
            // R8: a disputed renewal is settled, never granted around the rule.
            #expect(!(try terminal.screenText().contains("g  grant")))
            await app.press(.character("d"))
            await app.type("nobody")
            await app.press(.tab)
            await app.type("ticket 10")
            await app.press(.enter)
            #expect(try terminal.screenText().contains("favor is owner or submitter"))
            await app.press(.backTab)
            for _ in 0..<6 { await app.press(.backspace) }
            await app.type("submitter")
            await app.press(.enter)
            #expect(try terminal.screenText().contains("now delivered"))
            #expect(try await store.orders.find("sub-b")?.state == .delivered)
        }
    }

    @Test("A subscription's order list marks its orders as the order list does: a tester's sandbox purchase in a production store reads SBX")
    func subscriptionOrdersMarked() async throws {
        try await ConsoleTests.withConsole(rows: 30, cols: 100) { app, terminal, store in
            // App Review buys the subscription with a sandbox receipt (R2: delivered, flagged).
            let t0 = Millis.now() - .minutes(30)
            let period = AppleTransaction(
                transactionId: "otid-7", originalTransactionId: "otid-7", productId: "vip_monthly", purchaseDate: t0 + 60_000, expiresDate: t0 + .hours(700))
            let report = VerificationReport(
                environment: .sandbox, appleStatus: 0, content: AppleReceiptContent(bundleId: DemoCatalogue.bundleId, inApp: [period]))
            try await store.orders.place(orderId: "sub-r", accountId: "reviewer", productId: "vip_monthly", at: t0)
            let submission = try await store.orders.submit(orderId: "sub-r", receiptData: "r", claimedTransactionId: "otid-7", at: t0 + 1000)
            try await store.apple.apply(orderId: "sub-r", submissionId: submission, report: report)
            #expect(store.settings.isProduction)
            await app.command("order sub-r")
            await app.press(.character("o"))
            let frame = try terminal.screenText()
            #expect(frame.contains("Subscription otid-7"), "\(frame)")
            #expect(frame.contains("sub-r  reviewer  delivered SBX"), "\(frame)")
        }
    }

    @Test("A hand delivery Apple shows paid another order: the banner names it on every screen, :conflicts lists it, Enter opens it")
    func deliveredTwice() async throws {
        try await ConsoleTests.withConsole(rows: 30, cols: 100) { app, terminal, store in
            let t0 = Millis.now() - .minutes(30)
            let purchase = AppleTransaction(transactionId: "tx-twice", originalTransactionId: "tx-twice", productId: "coins_60", purchaseDate: t0 + 500)
            let answer = VerificationReport(
                environment: .production, appleStatus: 0,
                content: AppleReceiptContent(bundleId: DemoCatalogue.bundleId, inApp: [purchase]))
            try await store.orders.place(orderId: "paid-auto", accountId: "p1", productId: "coins_60", at: t0)
            let auto = try await store.orders.submit(orderId: "paid-auto", receiptData: "r", at: t0 + 1000)
            try await store.apple.apply(orderId: "paid-auto", submissionId: auto, report: answer)
            try await store.orders.place(orderId: "paid-hand", accountId: "p1", productId: "coins_60", at: t0)
            try await store.orders.submit(orderId: "paid-hand", receiptData: "r", at: t0 + 1000)
            let stuck = try #require(try await store.orders.find("paid-hand"))
            try await store.orders.grant(orderId: "paid-hand", expectedVersion: stuck.version, by: Operator(name: "alice", role: .support), reason: "ticket 12")
            try await store.apple.apply(orderId: "paid-hand", submissionId: nil, report: answer)
            await app.refresh()
            #expect(try terminal.screenText().contains("two deliveries for one purchase"))
            await app.command("conflicts")
            let list = try terminal.screenText()
            #expect(list.contains("Two deliveries for one purchase"))
            #expect(list.contains("paid-hand") && list.contains("paid-auto"))
            await app.press(.enter)
            let detail = try terminal.screenText()
            #expect(detail.contains("Order paid-hand"))
            #expect(detail.contains("TWO DELIVERIES"))
        }
    }

    @Test("Apple down: five failed calls in a row put a banner on every screen saying since when and how many orders wait; one answer clears it")
    func outageBanner() async throws {
        try await ConsoleTests.withConsole(rows: 30, cols: 120) { app, terminal, store in
            let down = VerificationReport(environment: nil, appleStatus: nil, httpStatus: nil, transportError: "timed out after 30 s")
            for index in 0..<6 {
                try await store.orders.place(orderId: "wait-\(index)", accountId: "p1", productId: "coins_60")
                let submission = try await store.orders.submit(orderId: "wait-\(index)", receiptData: "r")
                try await store.apple.apply(orderId: "wait-\(index)", submissionId: submission, report: down)
            }
            await app.refresh()
            let screen = try terminal.screenText()
            #expect(screen.contains("verifyReceipt failing since") && screen.contains("orders waiting, none rejected"), "\(screen)")

            let purchase = AppleTransaction(transactionId: "tx-back", originalTransactionId: "tx-back", productId: "coins_60", purchaseDate: .now())
            let answer = VerificationReport(
                environment: .production, appleStatus: 0, content: AppleReceiptContent(bundleId: DemoCatalogue.bundleId, inApp: [purchase]))
            try await store.apple.apply(orderId: "wait-0", submissionId: nil, report: answer)
            await app.refresh()
            #expect(try !terminal.screenText().contains("failing since"), "Apple answered: the banner is gone")
        }
    }

    @Test(
        ":notifications lists what Apple told us with its verdict; Enter shows it decoded; :jobs shows a dead job and R requeues it with a reason; the header counts the worker side"
    )
    func notificationsAndJobs() async throws {
        try await ConsoleTests.withConsole(rows: 30, cols: 140) { app, terminal, store in
            let refund = AppleTransaction(
                transactionId: "tx-refunded", originalTransactionId: "tx-refunded", productId: "coins_60",
                purchaseDate: .now() - 60_000, cancellationDate: .now() - 1_000)
            _ = try await store.notifications.receive(
                IncomingNotification(
                    endpoint: .production, via: .receiver, raw: "eyJ…", rejection: nil,
                    facts: NotificationFacts(uuid: "u-1", type: "REFUND", signedDate: .now(), environment: "Production", transaction: refund)))
            try await store.notifications.apply(key: "tx-refunded")
            _ = try await store.notifications.receive(
                IncomingNotification(
                    endpoint: .sandbox, via: .receiver, raw: "\u{1b}]0;pwned\u{07}", rejection: .notSignedPayloadBody,
                    facts: NotificationFacts()))
            await app.command("notifications")
            let list = try terminal.screenText()
            #expect(list.contains("REFUND") && list.contains("orphan") && list.contains("rejected"), "\(list)")
            await app.press(.down)
            await app.press(.enter)
            let detail = try terminal.screenText()
            #expect(detail.contains("tx-refunded") && detail.contains("verified: chain") && detail.contains("no order claims"), "\(detail)")
            #expect(!detail.contains("\u{1b}"))

            try await store.orders.place(orderId: "job-1", accountId: "p1", productId: "coins_60")
            try await store.orders.submit(orderId: "job-1", receiptData: "r")
            var now = Millis.now()
            for _ in 1...JobQueue.maxAttempts {
                let claimed = try await store.jobs.claim(owner: "w", limit: 500, lease: .seconds(60), now: now)
                for job in claimed where job.subject == "job-1" { try await store.jobs.finish(job, owner: "w", result: .failed("Apple said no"), now: now) }
                for job in claimed where job.subject != "job-1" {
                    try await store.jobs.finish(job, owner: "w", result: .again(at: .now() + .hours(100)), now: now)
                }
                now += .hours(2)
            }
            await app.command("jobs")
            await app.refresh()
            let jobs = try terminal.screenText()
            #expect(jobs.contains("DEAD · Apple said no") && jobs.contains("job-1"), "\(jobs)")
            #expect(jobs.contains("NO WORKER") && jobs.contains("dead 1"), "the header says nobody works the queue: \(jobs)")
            await app.press(.character("R"))
            for character in "Apple is back" { await app.press(.character(character)) }
            await app.press(.enter)
            #expect(try await eventually { try await store.jobs.job(.verify(orderId: "job-1"))?.deadAt == nil }, "requeued")
            await app.refresh()
            #expect(try await store.orders.detail("job-1").audit.contains { $0.action == .jobRequeue && $0.reason == "Apple is back" })
        }
    }

    @Test(
        ":undelivered lists what the game has not confirmed with its last error; Enter opens the order showing 'game told'; R resends with a reason; the header counts it and a failing game is a banner"
    )
    func undeliveredEvents() async throws {
        try await ConsoleTests.withConsole(rows: 30, cols: 140) { app, terminal, store in
            try await store.orders.place(orderId: "ev-1", accountId: "p-ev", productId: "coins_300")
            let submission = try await store.orders.submit(orderId: "ev-1", receiptData: "r")
            let purchase = AppleTransaction(transactionId: "tx-ev", originalTransactionId: "tx-ev", productId: "coins_300", purchaseDate: .now() - 1_000)
            let answer = VerificationReport(
                environment: .production, appleStatus: 0, content: AppleReceiptContent(bundleId: DemoCatalogue.bundleId, inApp: [purchase]))
            #expect(try await store.apple.apply(orderId: "ev-1", submissionId: submission, report: answer).order.state == .delivered)
            let event = try #require(try await store.outbox.events(orderId: "ev-1").first?.event)
            for _ in 1...OutageRule.streak {
                try await store.outbox.recordAttempt(
                    event, GameEventAttempt(at: .now(), via: .push, httpStatus: 503, answer: "HTTP 503: game down", latencyMs: 2))
            }
            await app.command("undelivered")
            await app.refresh()
            let list = try terminal.screenText()
            #expect(list.contains("ev-1") && list.contains("not confirmed after 5 tries: HTTP 503: game down"), "\(list)")
            #expect(list.contains("not told 1"), "the header counts it beside stuck: \(list)")
            #expect(list.contains("game endpoint failing since"), "the banner: \(list)")
            await app.press(.enter)
            let order = try terminal.screenText()
            #expect(order.contains("game told") && order.contains("delivered: not confirmed after 5 tries"), "\(order)")
            #expect(order.contains("game told delivered (\(event.eventId))"), "the timeline line: \(order)")
            await app.press(.escape)
            await app.press(.character("R"))
            for character in "player reports nothing arrived" { await app.press(.character(character)) }
            await app.press(.enter)
            #expect(
                try await eventually {
                    try await store.orders.detail("ev-1").audit.contains { $0.action == .eventResend && $0.reason == "player reports nothing arrived" }
                })
            #expect(try await store.jobs.job(.sendEvents(accountId: "p-ev")) != nil, "owed to the game again")
        }
    }

    @Test(
        ":undelivered, A resends every dead event with a reason: a progress bar counts the game's answers, and the result says how many it confirmed and how many died again"
    )
    func resendAllDead() async throws {
        try await ConsoleTests.withConsole(rows: 30, cols: 140) { app, terminal, store in
            var events: [GameEvent] = []
            for index in 1...2 {
                try await store.orders.place(orderId: "dead-\(index)", accountId: "p-dead-\(index)", productId: "coins_300")
                let submission = try await store.orders.submit(orderId: "dead-\(index)", receiptData: "r")
                let purchase = AppleTransaction(
                    transactionId: "tx-dead-\(index)", originalTransactionId: "tx-dead-\(index)", productId: "coins_300",
                    purchaseDate: .now() - 1_000)
                let answer = VerificationReport(
                    environment: .production, appleStatus: 0, content: AppleReceiptContent(bundleId: DemoCatalogue.bundleId, inApp: [purchase]))
                _ = try await store.apple.apply(orderId: "dead-\(index)", submissionId: submission, report: answer)
                let event = try #require(try await store.outbox.events(orderId: "dead-\(index)").first?.event)
                // Retried past its window: a dead letter. One clock reading for both, or a slow
                // moment between two makes the try land before the window's end.
                let now = Millis.now()
                events.append(
                    try await store.outbox.recordAttempt(
                        event, GameEventAttempt(at: now, via: .push, httpStatus: 503, answer: "HTTP 503: game down", latencyMs: 2),
                        giveUpAt: now - 1))
            }
            #expect(events.allSatisfy { $0.deadAt != nil })
            await app.command("undelivered")
            await app.refresh()
            #expect(try terminal.screenText().contains("A  resend all dead"))
            await app.press(.character("A"))
            #expect(try terminal.screenText().contains("2 events gave up after their retries"))
            for character in "game fixed its TLS" { await app.press(.character(character)) }
            await app.press(.enter)
            // The background job reports its total once the resend has committed: on a
            // loaded machine that can take more than one tick.
            var progress = ""
            for _ in 0..<250 {
                await app.tick()
                progress = try terminal.screenText()
                if progress.contains("game answering 2 resent events [") { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(progress.contains("game answering 2 resent events [") && progress.contains("0/2"), "\(progress)")
            #expect(try await store.outbox.resendDead(by: Operator(name: "alice", role: .admin), reason: "again").isEmpty, "none is dead any more")
            #expect(try await store.orders.detail("dead-1").audit.contains { $0.action == .eventResend && $0.reason == "game fixed its TLS" })

            // The worker's next tries: the game confirms one, the other fails once more and is dead again.
            try await store.outbox.recordAttempt(events[0], GameEventAttempt(at: .now(), via: .push, httpStatus: 200, answer: "applied", latencyMs: 2))
            try await store.outbox.recordAttempt(
                events[1], GameEventAttempt(at: .now(), via: .push, httpStatus: 500, answer: "HTTP 500: game error", latencyMs: 2),
                giveUpAt: .now() - 1)
            await app.settle()
            let done = try terminal.screenText()
            #expect(done.contains("resent 2: 1 confirmed by the game, 1 dead again (last: HTTP 500: game error)"), "\(done)")
        }
    }

    @Test(":orphans and :account open; a and o from an order open its account and subscription")
    func otherScreens() async throws {
        try await ConsoleTests.withConsole(rows: 30, cols: 100) { app, terminal, store in
            await app.command("orphans")
            #expect(try terminal.screenText().contains("Orphans"))
            let sub = try #require(try await store.orders.page(OrderFilter(state: .delivered, productId: "vip_monthly"), limit: 1).items.first)
            await app.command("order \(sub.orderId)")
            await app.press(.character("a"))
            #expect(try terminal.screenText().contains("Account \(sub.accountId)"))
            #expect(try terminal.screenText().contains("Grants"))
            // Enter lists the account's orders as a table; Enter there opens one, Esc comes back.
            await app.press(.enter)
            let accountOrders = try terminal.screenText()
            #expect(accountOrders.contains("Orders [acct:\(sub.accountId)]") && accountOrders.contains(sub.orderId), "\(accountOrders)")
            await app.press(.escape)
            #expect(try terminal.screenText().contains("Account \(sub.accountId)"))
            await app.press(.escape)
            await app.press(.character("o"))
            let otid = try #require(sub.originalTransactionId)
            #expect(try terminal.screenText().contains("Subscription \(otid)"))
            await app.press(.enter)
            let claimed = try terminal.screenText()
            #expect(claimed.contains("Orders [otid:\(otid)]") && claimed.contains(sub.orderId), "\(claimed)")
            await app.press(.enter)
            #expect(try terminal.screenText().contains("Timeline"))
        }
    }

    @Test(":orphans, A attaches the selected orphan to the order it paid for; a wrong order id is refused in the dialog")
    func attachOrphan() async throws {
        try await ConsoleTests.withConsole(rows: 30, cols: 100) { app, terminal, store in
            // A receipt for one order that also shows a purchase no order claims: an orphan.
            let t0 = Millis.now() - 120_000
            try await store.orders.place(orderId: "ord_paid", accountId: "p-attach", productId: "coins_60", at: t0)
            let submission = try await store.orders.submit(orderId: "ord_paid", receiptData: "r", claimedTransactionId: "tx-paid", at: t0 + 1000)
            let paid = AppleTransaction(transactionId: "tx-paid", originalTransactionId: "tx-paid", productId: "coins_60", purchaseDate: t0 + 500)
            let stray = AppleTransaction(transactionId: "tx-stray", originalTransactionId: "tx-stray", productId: "coins_300", purchaseDate: t0 + 600)
            try await store.apple.apply(
                orderId: "ord_paid", submissionId: submission,
                report: VerificationReport(
                    environment: .production, appleStatus: 0, content: AppleReceiptContent(bundleId: DemoCatalogue.bundleId, inApp: [paid, stray])))
            let orphan = try #require(try await store.orders.orphans(limit: 1).first)
            #expect(orphan.transaction.transactionId == "tx-stray")
            try await store.orders.place(orderId: "ord_for_orphan", accountId: "p-attach", productId: orphan.transaction.productId, at: t0)
            await app.command("orphans")
            #expect(try terminal.screenText().contains("A  attach to order"))
            await app.press(.character("A"))
            #expect(try terminal.screenText().contains("Attach transaction \(orphan.transaction.transactionId)"))
            await app.type("nosuch")
            await app.press(.tab)
            await app.type("ticket 11: the player sent the Apple invoice")
            await app.press(.enter)
            #expect(try terminal.screenText().contains("no order nosuch"))
            await app.press(.backTab)
            for _ in 0..<6 { await app.press(.backspace) }
            await app.type("ord_for_orphan")
            await app.press(.enter)
            #expect(try terminal.screenText().contains("attached to ord_for_orphan"))
            #expect(try await store.orders.find("ord_for_orphan")?.transactionId == orphan.transaction.transactionId)
        }
    }
}
