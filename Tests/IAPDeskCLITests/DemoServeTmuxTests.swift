import Foundation
import TestSupport
import Testing

/// The demo as a studio tries it: with the console open, a game server's purchase goes in
/// through the demo's `serve`, the simulated App Store renews and refunds through its
/// controls, and each change shows in the console and reaches the reference game.
@Suite("Demo serve in tmux", .serialized, .needsTmux, .takesTurns)
struct DemoServeTmuxTests {
    @Test(
        "a purchase through the intake is delivered while the player waits; a renewal and a refund from the simulator show live in the console and reach the game"
    )
    func liveDemo() async throws {
        let binary = try Tmux.binary()
        let db = Tmux.demoStorePath("serve")
        defer { Tmux.removeDemoStore(db) }
        let tmux = try Tmux.start("\(binary) demo --orders 2000 --db \(db)", cols: 100, rows: 40)
        defer { tmux.stop() }
        #expect(await tmux.screen(waitingFor: { $0.contains("Orders [all]") }, timeout: 60).contains("Orders [all]"))
        let endpoints = try await Self.endpoints(db + ".simulator/endpoints.txt")
        let serve = try #require(endpoints["SERVE"]), simulator = try #require(endpoints["SIM"]), game = try #require(endpoints["GAME"])
        let token = try #require(endpoints["TOKEN"])

        // The help screen names where the demo listens.
        try tmux.send("?")
        _ = await tmux.screen { $0.contains("Commands") }
        try tmux.send("NPage")
        let help = await tmux.screen { $0.contains("This session") }
        #expect(help.contains(serve) && help.contains(simulator), "\(help)")
        try tmux.send("Escape")

        // A player buys 60 coins and a monthly VIP; the game server submits each receipt and waits.
        var transactions: [String: String] = [:]
        for (order, product, kind) in [("live-coins", "coins_60", "consumable"), ("live-vip", "vip_monthly", "auto_renewable")] {
            let appleId = "apple-\(order)"
            let bought = try #require(
                await LoopbackHTTP.call(
                    .POST, simulator + "/control/purchase",
                    json: #"{"appleId":"\#(appleId)","productId":"\#(product)","kind":"\#(kind)"}"#))
            transactions[order] = try #require(bought.body["transactionId"] as? String)
            let receipt = try #require(await LoopbackHTTP.call(.GET, simulator + "/control/receipt?appleId=\(appleId)")?.body["receipt"] as? String)
            let placed = await LoopbackHTTP.call(
                .POST, serve + "/v1/orders",
                json: #"{"order_id":"\#(order)","account_id":"player-live","product_id":"\#(product)","quantity":1}"#, token: token)
            #expect(placed?.status == 201, "\(String(describing: placed))")
            let verdict = await LoopbackHTTP.call(
                .POST, serve + "/v1/orders/\(order)/receipts?wait=8",
                json: #"{"receipt_data":"\#(receipt)"}"#, token: token)
            #expect(verdict?.status == 200 && verdict?.body["state"] as? String == "delivered", "\(String(describing: verdict?.body))")
        }
        // A StoreKit 2 app hands its server the signed transaction: the simulator's purchase
        // answer carries it, so the rehearsal needs no hand-minted token.
        let storeKit2 = try #require(
            await LoopbackHTTP.call(.POST, simulator + "/control/purchase", json: #"{"appleId":"apple-sk2","productId":"coins_300"}"#))
        let signed = try #require(storeKit2.body["signedTransaction"] as? String, "\(storeKit2.body)")
        #expect(
            await LoopbackHTTP.call(
                .POST, serve + "/v1/orders", json: #"{"order_id":"live-sk2","account_id":"player-live","product_id":"coins_300","quantity":1}"#,
                token: token)?.status == 201)
        let sk2 = await LoopbackHTTP.call(.POST, serve + "/v1/orders/live-sk2/receipts?wait=8", json: #"{"signed_transaction":"\#(signed)"}"#, token: token)
        #expect(sk2?.status == 200 && sk2?.body["state"] as? String == "delivered", "\(String(describing: sk2?.body))")
        #expect(try await eventually { await Self.holdings(game)?["balances"]?["coins_60"] == 1 }, "the game got the coins")
        let paidUntil = try #require(await Self.holdings(game)?["subscriptions"]?["vip_monthly"])

        // Apple renews the VIP: DID_RENEW reaches serve, R8 extends it, the game is told.
        let vip = try #require(transactions["live-vip"])
        #expect(await LoopbackHTTP.call(.POST, simulator + "/control/renew", json: #"{"originalTransactionId":"\#(vip)"}"#)?.status == 200)
        #expect(
            try await eventually { (await Self.holdings(game)?["subscriptions"]?["vip_monthly"] ?? 0) > paidUntil },
            "the game's VIP was extended")

        // Apple refunds the coins: REFUND → R9 → refunded in the console, and the game takes them back.
        let coins = try #require(transactions["live-coins"])
        #expect(await LoopbackHTTP.call(.POST, simulator + "/control/refund", json: #"{"transactionId":"\#(coins)"}"#)?.status == 200)
        try tmux.command("order live-coins")
        let refunded = await tmux.screen(
            waitingFor: { $0.contains("Order live-coins · refunded") && $0.contains("game told    refunded: confirmed") },
            timeout: 15)
        #expect(refunded.contains("Apple REFUND") && refunded.contains("game told    refunded: confirmed"), "\(refunded)")
        #expect(try await eventually { await Self.holdings(game)?["balances"]?["coins_60"] == 0 }, "the game took the coins back")
        try tmux.send("Escape")
        try tmux.command("q")
    }

    /// `NAME=value` lines of the demo's endpoints file, once the demo wrote it.
    private static func endpoints(_ path: String) async throws -> [String: String] {
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: path), Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].allSatisfy({ $0.isUppercase }) else { continue }
            values[String(parts[0])] = String(parts[1].split(separator: " ").first ?? "")
        }
        return values
    }

    /// What the reference game says a demo player holds.
    private static func holdings(_ game: String) async -> [String: [String: Int64]]? {
        guard let body = await LoopbackHTTP.call(.GET, game + "/players/player-live")?.body else { return nil }
        return body.mapValues { ($0 as? [String: Any] ?? [:]).compactMapValues { ($0 as? NSNumber)?.int64Value } }
    }
}
