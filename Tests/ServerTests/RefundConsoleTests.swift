import Console
import Foundation
import OrderStore
import TestSupport
import Testing

/// Apple's refund requests answered from the console (issue 32), from the key press to
/// Apple's recorded answer and the audit entry, with `serve` and the simulator as Apple.
@Suite("Console: refund requests")
struct RefundConsoleTests {
    @Test(
        "The header counts the open request and its countdown; :refunds lists it, Enter shows the game's report, a answers it: without consent the dialog says so and Apple gets nothing, with it Apple records the answer and the audit names the operator; a viewer is offered no answer",
        arguments: Backend.all)
    func answeredFromTheConsole(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, serverAPI: true) { serve in
            let sim = serve.simulator
            await sim.notifications.configure(
                production: serve.baseURL + "/apple/notifications/production", sandbox: serve.baseURL + "/apple/notifications/sandbox")
            let coins = try await NotificationTests.delivered("rc-1", product: "coins_980", kind: .consumable, account: "acct-rc", in: serve)
            #expect(try await serve.call(.POST, "/v1/orders/rc-1/consumption", json: #"{"consumed_percent": 40}"#).status == 201)
            let request = try await RefundRequestTests.requested(coins.transactionId, in: serve)

            let viewer = MemoryTerminal()
            let watching = ConsoleApp(
                session: ConsoleSession(
                    store: serve.store, actor: Operator(name: "vic", role: .viewer), storeLabel: "t", appleActions: serve.verifier.serverAPI),
                device: viewer)
            await watching.open()
            await watching.command("refunds")
            #expect(try viewer.screenText().contains("rc-1") && !viewer.screenText().contains("answer Apple"))

            let terminal = MemoryTerminal()
            let app = ConsoleApp(
                session: ConsoleSession(
                    store: serve.store, actor: Operator(name: "lin", role: .support), storeLabel: "t", appleActions: serve.verifier.serverAPI),
                device: terminal)
            await app.open()
            let home = try terminal.screenText()
            #expect(home.contains("refunds 1 (next due in 11h"), "\(home)")
            await app.command("refunds")
            let list = try terminal.screenText()
            #expect(list.contains("Refund requests") && list.contains("rc-1") && list.contains("due in 11h") && list.contains("a  answer Apple"), "\(list)")
            await app.press(.enter)
            let evidence = try terminal.screenText()
            #expect(evidence.contains("Refund request #\(request.notification.id)") && evidence.contains("40 % used"), "\(evidence)")

            await app.press(.character("a"))
            let dialog = try terminal.screenText()
            #expect(dialog.contains("Answer refund request") && dialog.contains("Delivery: delivered") && dialog.contains("unknown): 40"), "\(dialog)")
            await app.type("no")
            for _ in 0..<5 { await app.press(.tab) }
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
            let audit = try await serve.store.auditLog().first { $0.action == "refund_request.answered" }
            #expect(audit?.actor == "lin" && audit?.reason == "ticket 9: coins spent")
            await app.refresh()
            #expect(try !terminal.screenText().contains("refunds 1"), "answered: the header no longer counts it")
        }
    }
}
