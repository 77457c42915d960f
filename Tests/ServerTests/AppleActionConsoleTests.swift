import Console
import Foundation
import OrderDomain
import OrderStore
import TestSupport
import Testing

extension AppleSide {
    /// Apple's actions taken from the console: refund requests answered and
    /// subscriptions extended, from the key press to Apple's recorded answer and the audit
    /// entry, with `serve` and the simulator as Apple.
    @Suite("Console: acting on Apple's side")
    struct AppleActionConsoleTests {
        static func console(_ serve: IntakeTests.Running, as actor: Operator) async -> (ConsoleApp, MemoryTerminal) {
            let terminal = MemoryTerminal()
            let app = ConsoleApp(
                session: ConsoleSession(store: serve.store, actor: actor, storeLabel: "t", appleActions: serve.verifier.serverAPI), device: terminal)
            await app.open()
            return (app, terminal)
        }

        @Test(
            "The header counts the open request and its countdown; :refunds lists it, Enter shows the game's report, a answers it: without consent the dialog says so and Apple gets nothing, with it Apple records the answer and the audit names the operator; a viewer is offered no answer",
            arguments: Backend.all)
        func answeredFromTheConsole(backend: Backend) async throws {
            try await IntakeTests.withServe(backend, serverAPI: true) { serve in
                let sim = serve.simulator
                await serve.wireNotifications()
                let coins = try await NotificationTests.delivered("rc-1", product: "coins_980", kind: .consumable, account: "acct-rc", in: serve)
                #expect(try await serve.call(.POST, "/v1/orders/rc-1/consumption", json: #"{"consumed_percent": 40}"#).status == 201)
                let request = try await RefundRequestTests.requested(coins.transactionId, in: serve)

                let (watching, viewer) = await Self.console(serve, as: Operator(name: "vic", role: .viewer))
                await watching.command("refunds")
                #expect(try viewer.screenText().contains("rc-1") && !viewer.screenText().contains("answer Apple"))

                let (app, terminal) = await Self.console(serve, as: Operator(name: "lin", role: .support))
                let home = try terminal.screenText()
                #expect(home.contains("refunds 1 (next due in 11h"), "\(home)")
                await app.command("refunds")
                let list = try terminal.screenText()
                #expect(list.contains("Refund requests") && list.contains("rc-1") && list.contains("due in 11h") && list.contains("a  answer Apple"), "\(list)")
                await app.press(.enter)
                let evidence = try terminal.screenText()
                #expect(evidence.contains("Refund request #\(request.notification.id)") && evidence.contains("40 % used"), "\(evidence)")
                #expect(evidence.contains("Apple Account  no other game account seen on it"), "a label never runs into its value: \(evidence)")

                await app.press(.character("a"))
                let dialog = try terminal.screenText()
                #expect(dialog.contains("Answer refund request") && dialog.contains("Delivery: delivered") && dialog.contains("unknown): 40"), "\(dialog)")
                // What the game reported is filled in (it reported no consent): the reason is typed at once.
                #expect(dialog.contains("Customer consented (yes/no): no"), "\(dialog)")
                await app.type("ticket 9: coins spent")
                await app.press(.enter)
                let refused = try terminal.screenText()
                #expect(refused.contains("consent"), "\(refused)")
                #expect(await sim.consumptionAnswer(transactionId: coins.transactionId) == nil, "nothing reached Apple")

                await app.press(.tab)  // from the reason back to the first field
                await app.press(.control("u"))
                await app.type("yes")
                for _ in 0..<3 { await app.press(.tab) }
                await app.press(.control("u"))
                await app.type("decline")
                await app.press(.enter)
                let sent = try terminal.screenText()
                #expect(sent.contains("sent to Apple: delivered, 40 % consumed, prefers decline"), "\(sent)")
                let atApple = try #require(await sim.consumptionAnswer(transactionId: coins.transactionId))
                #expect(atApple["consumptionPercentage"] == "40000" && atApple["refundPreference"] == "DECLINE")
                let audit = try await serve.store.audit.entries().first { $0.action == .refundRequestAnswered }
                #expect(audit?.actor == "lin" && audit?.reason == "ticket 9: coins spent")
                await app.refresh()
                #expect(try !terminal.screenText().contains("refunds 1"), "answered: the header no longer counts it")
                // Answered, it leaves the queue; :refunds all lists it with what was sent.
                await app.command("refunds")
                #expect(try !terminal.screenText().contains("rc-1"))
                await app.command("refunds all")
                let history = try terminal.screenText()
                #expect(history.contains("Refund requests, all") && history.contains("rc-1"), "\(history)")
                await app.press(.enter)
                #expect(try terminal.screenText().contains("answered by lin"))
                // From the order, what Apple said about its purchase and what the game was told.
                await app.command("order rc-1")
                await app.press(.character("N"))
                let notifications = try terminal.screenText()
                #expect(notifications.contains("Notifications about \(coins.transactionId)") && notifications.contains("CONSUMPTION_REQUE"), "\(notifications)")
                await app.press(.escape)
                await app.press(.character("E"))
                let events = try terminal.screenText()
                #expect(events.contains("Events of order rc-1") && events.contains("delivered"), "\(events)")
            }
        }

        @Test(
            "e on a subscription extends it with Apple for an admin: the dialog says Apple's rules, 91 days is refused in the dialog before Apple is asked, 7 days reaches Apple, the new end shows on the screen with the extension and the audit names the admin; support is offered no e",
            arguments: Backend.all)
        func extendedFromTheConsole(backend: Backend) async throws {
            try await IntakeTests.withServe(backend, serverAPI: true) { serve in
                let vip = try await NotificationTests.delivered("xc-1", product: "vip_monthly", kind: .autoRenewable, account: "acct-xc", in: serve)
                let otid = vip.originalTransactionId
                let before = try #require(try await serve.store.subscriptions.detail(otid).subscription?.expiresAt)

                let (support, supportTerminal) = await Self.console(serve, as: Operator(name: "lin", role: .support))
                await support.command("otid \(otid)")
                #expect(try supportTerminal.screenText().contains("t  transfer") && !supportTerminal.screenText().contains("e  extend"))

                let (app, terminal) = await Self.console(serve, as: Operator(name: "ada", role: .admin))
                await app.command("otid \(otid)")
                #expect(try terminal.screenText().contains("e  extend"))
                await app.press(.character("e"))
                let dialog = try terminal.screenText()
                #expect(dialog.contains("Extend subscription \(otid)") && dialog.contains("1 to 90 days") && dialog.contains("(0 so far)"), "\(dialog)")
                await app.type("91")
                await app.press(.tab)
                await app.press(.tab)
                await app.type("ticket 5: a week of outage")
                await app.press(.enter)
                let refused = try terminal.screenText()
                #expect(refused.contains("cannot be extended") && refused.contains("90"), "\(refused)")
                #expect(try await serve.store.extensions.of(originalTransactionId: otid).isEmpty, "nothing was asked of Apple")

                await app.press(.tab)  // from the reason to the days
                await app.press(.control("u"))
                await app.type("7")
                await app.press(.enter)
                let done = try terminal.screenText()
                #expect(done.contains("extended \(otid) by 7 days"), "\(done)")
                await app.press(.end)  // the extensions are the screen's last section
                let end = try terminal.screenText()
                #expect(end.contains("Renewal date extensions asked of Apple") && end.contains("+7 days (customer satisfaction) by ada: sent"), "\(end)")
                #expect(try await serve.store.subscriptions.detail(otid).subscription?.expiresAt == before + 7 * 86_400_000)
                #expect(
                    try await serve.store.audit.entries().contains {
                        $0.action == .subscriptionExtend && $0.actor == "ada" && $0.reason == "ticket 5: a week of outage"
                    })
            }
        }
    }
}
