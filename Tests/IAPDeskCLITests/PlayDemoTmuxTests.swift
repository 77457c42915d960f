import Foundation
import OrderDomain
import OrderStore
import SyntheticData
import TestSupport
import Testing

/// Android players' tickets in the demo, solved by keyboard at 80×24 as an Apple one is: the
/// demo seeds them through the Google Play simulator and runs it in process.
@Suite("Android tickets in tmux", .serialized, .needsTmux, .takesTurns)
struct PlayDemoTmuxTests {
    @Test(
        "Paid, nothing arrived: found by the GPA id only Google knew, re-verified with Google, delivered; the refund warning: :acks shows hours left, a acknowledges; found by GPA id and purchase token; a purchase the game never sent, attached by A from its GPA id; store:google lists Play's orders; an account's orders on both stores; :disputes google apart from Apple's; $ refunds at Google and the voided notice revokes; a replayed token names its holder; a test purchase is flagged; e defers a subscription at Google, E every subscriber of its product; t settles the dispute across linked tokens",
        arguments: Backend.all)
    func androidTickets(backend: Backend) async throws {
        let binary = try Tmux.binary()
        let demo = try await DemoSession.start(binary, on: backend)
        defer { demo.stop() }
        let tmux = demo.tmux
        func type(_ text: String) throws { try tmux.run("send-keys -t \(tmux.session) -l '\(text)'") }

        // "Paid 98 on Android and got nothing", with Google's receipt email: the order waits,
        // Google answered 503 when the game submitted it, so only Google knows its GPA id.
        let seeded = try await demo.openStore()
        let ticket = try await seeded.notes.list(on: .account("demo_gp_stuck")).first?.text ?? ""
        let lostTicket = try await seeded.notes.list(on: .account("demo_gp_lost")).first?.text ?? ""
        await seeded.close()
        let gpa = try #require(ticket.split(separator: " ").first { $0.hasPrefix("GPA.") }.map(String.init))
        try tmux.send("/")
        try type(gpa)
        try tmux.send("Enter")
        let asked = await tmux.screen { $0.contains("Google's order \(gpa)") }
        #expect(asked.contains("gp_stuck_1") && asked.contains("verify_retry"), "asked of Google, found by its token: \(asked)")
        try tmux.send("Enter")
        let stuck = await tmux.screen { $0.contains("Order gp_stuck_1") }
        #expect(stuck.contains("Google Play") && stuck.contains("verify_retry"), "\(stuck)")
        try tmux.send("r")
        let verified = await tmux.screen(waitingFor: { $0.contains("delivered") && $0.contains("gp_stuck_1") }, timeout: 15)
        #expect(verified.contains("delivered"), "\(verified)")
        try tmux.send("Escape")

        // "Google says my purchase will be refunded": acknowledge it now, with the ticket as reason.
        try tmux.command("acks")
        let owed = await tmux.screen { $0.contains("acknowledgements owed") && $0.contains("gp_ack_1") }
        #expect(owed.contains("9h") || owed.contains("10h"), "about ten hours left: \(owed)")
        let rows = owed.split(separator: "\n").map(String.init)
        let row = try #require(rows.firstIndex { $0.contains("gp_ack_1") })
        // Put the selection on gp_ack_1 (gp_stuck_1, just delivered, is owed too).
        let first = try #require(rows.firstIndex { $0.contains("ACK BY") }) + 1
        for _ in 0..<(row - first) { try tmux.send("Down") }
        try tmux.send("a")
        #expect(await tmux.screen { $0.contains("Reason:") }.contains("Acknowledge"))
        try type("ticket 301: refund warning from Google")
        try tmux.send("Enter")
        #expect(await tmux.screen { $0.contains("Google acknowledged order gp_ack_1") }.contains("Google acknowledged order gp_ack_1"))

        // The player only has Google's receipt email; the game server logged the token.
        let store = try await demo.openStore()
        let voided = try #require(try await store.orders.find("gp_void_1"))
        let token = try #require(try await store.googlePlay.tokens(ofOrder: "gp_sub_b").first)
        let acknowledged = try await store.googlePlay.purchase(token: try #require(try await store.googlePlay.tokens(ofOrder: "gp_ack_1").first))
        let subscription = try #require(try await store.orders.find("gp_sub_a")?.originalTransactionId)
        let reverified = try await store.orders.detail("gp_stuck_1")
        await store.close()
        #expect(reverified.order.state == .delivered && reverified.grants.count == 1, "re-verified with Google and delivered once")
        #expect(acknowledged?.facts.acknowledged == true && acknowledged?.acknowledgedAt != nil, "the store knows Google has it")
        try tmux.send("Escape")
        try tmux.send("/", "C-u")
        let voidedGPA = try #require(voided.transactionId)
        try type(voidedGPA)
        try tmux.send("Enter")
        // Its own filter's screen, not the one before it (an earlier GPA id's).
        let byGPA = await tmux.screen { $0.contains("Orders [\(voidedGPA)]") }
        #expect(byGPA.contains("gp_void_1") && byGPA.contains("refunded") && byGPA.contains("Play"), "\(byGPA)")
        try tmux.send("/", "C-u")
        try type("token:" + token)
        try tmux.send("Enter")
        // A token is some 150 keys, each drawn: a loaded machine takes seconds to type it.
        let byToken = await tmux.screen(waitingFor: { $0.contains("Orders [token:") }, timeout: 20)
        #expect(byToken.contains("gp_sub_b") && byToken.contains("disputed"), "\(byToken)")

        // "Paid, the game closed and nothing came": Google's receipt names a purchase no order
        // submitted; A attaches it to the order that waits for it, which is delivered once.
        let lostGPA = try #require(lostTicket.split(separator: " ").first { $0.hasPrefix("GPA.") }.map(String.init))
        try tmux.send("/", "C-u")
        try type(lostGPA)
        try tmux.send("Enter")
        let unclaimed = await tmux.screen { $0.contains("no order submitted") }
        #expect(unclaimed.contains("no order submitted") && unclaimed.contains("attach Google's purchase"), "what Google said, and the key: \(unclaimed)")
        try tmux.send("A")
        #expect(await tmux.screen { $0.contains("Order id:") }.contains("Attach Google's order \(lostGPA)"))
        try type("gp_lost_1")
        try tmux.send("Tab")
        try type("ticket 304: paid, the game closed")
        try tmux.send("Enter")
        let attached = await tmux.screen(waitingFor: { $0.contains("gp_lost_1") && $0.contains("delivered") }, timeout: 15)
        #expect(attached.contains("delivered"), "\(attached)")

        // One store's orders: the STORE column says which.
        try tmux.send("/", "C-u")
        try type("store:google")
        try tmux.send("Enter")
        let android = await tmux.screen { $0.contains("Orders [store:google]") }
        #expect(android.contains("STORE") && android.contains("Play") && !android.contains("Apple"), "\(android)")

        // "I moved from my iPhone to Android": one account, both stores' orders in one list.
        try tmux.command("account demo_moved")
        let moved = await tmux.screen { $0.contains("demo_moved_1") && $0.contains("gp_moved_1") }
        #expect(moved.contains("Apple") && moved.contains("Play"), "each order says its store: \(moved)")

        // The dispute across linked tokens is listed with Google's, apart from Apple's.
        try tmux.command("disputes google")
        let google = await tmux.screen { $0.contains("Disputes (R8 decisions to review), Google Play only") && $0.contains("gp_sub_b") }
        #expect(!google.contains("ord_"), "the demo's App Store disputes are not Google's: \(google)")
        try tmux.command("disputes apple")
        let apple = await tmux.screen { $0.contains("Disputes") && $0.contains("ord_") }
        #expect(!apple.contains("gp_sub_b"), "\(apple)")

        // "The game says my purchase belongs to someone else": the token was gp_replay_a's (R7).
        try tmux.command("order gp_replay_b")
        let replayed = await tmux.screen { $0.contains("Order gp_replay_b") && $0.contains("Timeline") }
        #expect(replayed.contains("REPLAY") && replayed.contains("gp_replay_a"), "the order that holds the purchase is named: \(replayed)")
        try tmux.send("g")
        #expect(await tmux.screen { $0.contains("Grant gp_replay_b") }.contains("WARNING: rejected as a replay"), "granting would pay twice")
        try tmux.send("Escape", "Escape")

        // A license tester's purchase: delivered, flagged, no money moved.
        try tmux.command("order gp_test_1")
        let tester = await tmux.screen { $0.contains("Order gp_test_1") }
        #expect(tester.contains("SANDBOX") && !tester.contains("Finish Transaction"), "flagged; Apple's Finish Transaction is not Google's: \(tester)")
        try tmux.send("NPage")
        let playPart = await tmux.screen { $0.contains("TEST purchase") }
        #expect(playPart.contains("TEST purchase (license tester)"), "\(playPart)")
        try tmux.send("Escape")

        // "Refund me": Google refunds it and takes the coins back; its notice revokes it here.
        try tmux.command("order gp_000001")
        _ = await tmux.screen { $0.contains("Order gp_000001") }
        try tmux.send("$")
        #expect(await tmux.screen { $0.contains("Reason:") }.contains("Refund gp_000001 at Google"))
        // "yes" is filled in: typing starts in the reason.
        try type("ticket 302: bought by mistake")
        try tmux.send("Enter")
        #expect(await tmux.screen { $0.contains("takes access back") }.contains("takes access back"))
        let refunded = try await eventually(within: 20) {
            let store = try await demo.openStore()
            let state = try await store.orders.find("gp_000001")?.state
            await store.close()
            return state == .refunded
        }
        #expect(refunded, "Google's voided notice reached the demo's serve, which applied R9")
        let reread = try await demo.openStore()
        let lost = try await reread.orders.detail("gp_lost_1")
        await reread.close()
        #expect(lost.order.state == .delivered && lost.grants.count == 1 && lost.order.marketplace == .googlePlay, "attached, delivered once: \(lost.order)")
        #expect(lost.audit.contains { $0.action == .googleAttach && $0.reason == "ticket 304: paid, the game closed" })

        // "The servers were down for a week": defer the subscription's renewal at Google.
        try tmux.command("otid \(subscription)")
        _ = await tmux.screen { $0.contains("Subscription \(subscription)") }
        try tmux.send("e")
        #expect(await tmux.screen { $0.contains("Days:") }.contains("Defer subscription"))
        try type("7")
        try tmux.send("Tab")
        try type("ticket 303: outage week")
        try tmux.send("Enter")
        #expect(await tmux.screen { $0.contains("by 7 days at Google") }.contains("now ends"))
        // After an outage: every subscriber of the product, deferred one after another with progress.
        try tmux.send("E")
        #expect(await tmux.screen { $0.contains("Days:") }.contains("Defer every"))
        try type("3")
        try tmux.send("Tab")
        try type("ticket 305: outage, everyone")
        try tmux.send("Enter")
        let all = await tmux.screen(waitingFor: { $0.contains("deferred by 3 days at Google") }, timeout: 20)
        #expect(all.contains("1 of 1"), "each active subscriber deferred: \(all)")

        // "VIP is not on for this account": the plan change B submitted is A's (R8); support
        // moves the subscription to B, as the ticket's proof says.
        try tmux.send("Escape")
        try tmux.command("disputes google")
        _ = await tmux.screen { $0.contains("Disputes") && $0.contains("gp_sub_b") }
        try tmux.send("Enter")
        #expect(await tmux.screen { $0.contains("R8 verdict") }.contains("Subscription \(subscription)"))
        #expect(try await tmux.transferSubscription(to: "demo_gp_sub_b", reason: "ticket 306: B paid for the yearly plan").contains("demo_gp_sub_b"))
        try tmux.send("q")
    }
}
