import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import TestSupport
import Testing

@testable import IAPDeskApp
@testable import IAPDeskCLI

/// A studio's walk, as it takes it from the README's quick start with the real binary: a new store
/// for two games, their catalogues imported, an order of each product type delivered
/// through `serve`, the player found by Apple's order id and by appTransactionId, a CSV of
/// past orders imported, and the desk in tmux showing one game's orders. No SQL. Apple is
/// one simulator per game (one root, each with its own shared secret and key).
@Suite("Studio walk: two games, one desk", .serialized, .needsBinary, .needsTmux, .takesTurns)
struct StudioWalkTmuxTests {
    static let dragon = "com.studio.dragon"
    static let kitten = "com.studio.kitten"

    @Test(
        "init, app add, two catalogues, serve, every product type delivered, find by MK… and appTransactionId, past orders imported, app: in the console",
        arguments: Backend.all)
    func walk(backend: Backend) async throws {
        let binary = try Machine.requireBinary()
        let folder = Scratch.url("iapdesk-walk-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var environment: [String: String] = [:]
        if case .postgres(let url) = try await backend.freshLocation() { environment["IAPDESK_DB"] = url }
        func run(_ arguments: [String]) async throws -> String {
            let (status, output, error) = try await CLIErrorTests.run(arguments + ["--config", folder + "/iapdesk.toml"], environment: environment)
            #expect(status == 0, "iapdesk \(arguments.joined(separator: " ")): \(output)\(error)")
            return output + error
        }

        // Apple: one root, a simulator per game with its own secret and key.
        let dragonApple = try AppStoreSimulator(bundleId: Self.dragon, sharedSecret: "dragon-secret")
        let kittenApple = try AppStoreSimulator(
            bundleId: Self.kitten, sharedSecret: "kitten-secret", apiKey: SimulatorAPIKey(keyId: "KITTEN0001"), authority: dragonApple.authority,
            catalogue: SimulatedCatalogue([
                SimulatedProduct("fish_10", kind: .consumable, priceMilli: 1_000),
                SimulatedProduct("kitten_vip", kind: .autoRenewable, priceMilli: 12_000, group: "31000001"),
            ]), firstTransactionId: 3_000_000_000_000_001)
        let dragonServer = try await SimulatorServer.start(dragonApple)
        let kittenServer = try await SimulatorServer.start(kittenApple)
        defer {
            Task {
                await dragonServer.stop()
                await kittenServer.stop()
            }
        }

        // 1. init for the first game; Apple's files into the configuration; the second game added.
        let (status, output, error) = try await CLIErrorTests.run(
            ["init", "--bundle-id", Self.dragon, "--dir", folder, "--public-url", "https://iap.studio.example"], environment: environment)
        #expect(status == 0, "\(output)\(error)")
        let dragonFiles = try SimulatorFiles.write(dragonApple, into: folder + "/dragon-apple")
        let kittenFiles = try SimulatorFiles.write(kittenApple, into: folder + "/kitten-apple")
        let config = folder + "/iapdesk.toml"
        var text = try String(contentsOfFile: config, encoding: .utf8)
        // serve is started with the process's own environment: it reads the PostgreSQL URL here.
        if let url = environment["IAPDESK_DB"] { text = text.replacingOccurrences(of: "[store]\n", with: "[store]\ndb = \"\(url)\"\n") }
        text = text.replacingOccurrences(
            of: "[apple]\n",
            with: """
                [apple]
                simulator = "\(dragonServer.baseURL)"
                shared_secret_file = "\(dragonFiles.secret)"
                key_file = "\(dragonFiles.key)"
                key_id = "\(dragonApple.apiKey.keyId)"
                issuer_id = "\(dragonApple.apiKey.issuerId)"

                """)
        text += """

            [receipts]
            trust_roots = "\(dragonFiles.roots)"

            [[apps]]
            bundle_id = "\(Self.kitten)"
            simulator = "\(kittenServer.baseURL)"
            shared_secret_file = "\(kittenFiles.secret)"
            key_file = "\(kittenFiles.key)"
            key_id = "KITTEN0001"
            issuer_id = "\(kittenApple.apiKey.issuerId)"

            """
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        _ = try await run(["app", "add", Self.kitten, "--name", "Kitten Café", "--reason", "second game"])
        #expect(try await run(["app", "list"]).contains("Kitten Café"))

        // 2. Both catalogues from files, each product with its game.
        let dragonCSV = folder + "/dragon.csv", kittenCSV = folder + "/kitten.csv"
        try """
        id,type,name,price,currency,group,level,duration_days,gives,app
        coins_60,consumable,60 金币,6.00,CNY,,,,coins:60,\(Self.dragon)
        no_ads,non_consumable,Remove ads,18.00,CNY,,,,,\(Self.dragon)
        pass_30d,non_renewing,30-day pass,30.00,CNY,,,30,,\(Self.dragon)
        vip_monthly,auto_renewable,月度 VIP,25.00,CNY,\(SimulatedCatalogue.vipGroup),2,,,\(Self.dragon)
        """.write(toFile: dragonCSV, atomically: true, encoding: .utf8)
        try """
        id,type,name,price,currency,group,level,duration_days,app
        fish_10,consumable,10 条鱼,1.00,CNY,,,,\(Self.kitten)
        kitten_vip,auto_renewable,Kitten VIP,12.00,CNY,31000001,1,,\(Self.kitten)
        """.write(toFile: kittenCSV, atomically: true, encoding: .utf8)
        _ = try await run(["product", "import", dragonCSV, "--reason", "launch"])
        _ = try await run(["product", "import", kittenCSV, "--reason", "launch"])
        let apps = try await run(["app", "list"])
        #expect(apps.contains(Self.dragon) && apps.contains(Self.kitten), "\(apps)")
        // Kitten launches on Android under another id: its package sells Kitten's products.
        let added = try await run(["app", "add", "com.studio.kitten.android", "--store", "google", "--game", Self.kitten, "--reason", "Android launch"])
        #expect(added.contains("Google Play package com.studio.kitten.android in the game \(Self.kitten)"), "\(added)")
        let both = try await run(["app", "list"]).split(separator: "\n").first { $0.contains("com.studio.kitten.android") }.map(String.init) ?? ""
        #expect(both.contains("Play") && both.contains(Self.kitten) && both.contains("2"), "the package's store, game and the game's products: \(both)")

        // 3. serve, and the game servers' two calls for an order of every type.
        let tokens = try String(contentsOfFile: folder + "/client-tokens", encoding: .utf8)
        let token = try #require(tokens.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines))
        let serve = try await ServeProcess.start(binary, config: config, tokens: folder + "/client-tokens")
        defer { serve.process.terminate() }
        let base = try #require(serve.baseURL)
        let orders: [(id: String, product: String, kind: SimulatedPurchase.Kind, apple: AppStoreSimulator)] = [
            ("d-coins", "coins_60", .consumable, dragonApple), ("d-noads", "no_ads", .nonConsumable, dragonApple),
            ("d-pass", "pass_30d", .nonRenewing, dragonApple), ("d-vip", "vip_monthly", .autoRenewable, dragonApple),
            ("k-vip", "kitten_vip", .autoRenewable, kittenApple), ("k-fish", "fish_10", .consumable, kittenApple),
        ]
        var purchases: [String: SimulatedPurchase] = [:]
        for order in orders {
            let placed = await LoopbackHTTP.call(
                .POST, base + "/v1/orders", json: #"{"order_id":"\#(order.id)","account_id":"player-1","product_id":"\#(order.product)"}"#, token: token)
            #expect(placed?.status == 201, "\(placed?.body ?? [:])")
            let appleId = "\(order.id)@icloud"
            let purchase = await order.apple.ledger.purchase(appleId: appleId, productId: order.product, kind: order.kind, appAccountToken: order.id)
            purchases[order.id] = purchase
            // The kitten pack comes as StoreKit 2 does: a signed transaction.
            let body =
                order.id == "k-fish"
                ? #"{"signed_transaction":"\#(try await kittenApple.signedTransaction(purchase))"}"#
                : #"{"receipt_data":"\#(try await order.apple.ledger.receipt(appleId: appleId))"}"#
            let submitted = await LoopbackHTTP.call(.POST, base + "/v1/orders/\(order.id)/receipts", json: body, token: token)
            #expect(submitted?.status == 202, "\(order.id): \(submitted?.body ?? [:])")
        }
        for order in orders {
            let delivered = try await eventually(within: 60) {
                await LoopbackHTTP.call(.GET, base + "/v1/orders/\(order.id)", token: token)?.body["state"] as? String == "delivered"
            }
            #expect(delivered, "\(order.id) delivered through serve")
        }

        // The game is told what to give, as the catalogue says, and which game it is for.
        let events = await LoopbackHTTP.call(.GET, base + "/v1/events?after=0", token: token)?.body["events"] as? [[String: Any]] ?? []
        let coins = try #require(events.first { $0["order_id"] as? String == "d-coins" })
        #expect((coins["effect"] as? [String: Any])?["gives"] as? [String: Int] == ["coins": 60], "\(coins)")
        #expect(coins["app"] as? String == Self.dragon)

        // 4. The player's ticket: Apple's order id, and the Apple Account's appTransactionId.
        let fish = try #require(purchases["k-fish"])
        #expect(try await run(["order", "find", fish.appleOrderId]).contains("k-fish"), "found by Apple's order id, asked as each game")
        #expect(try await run(["order", "find", fish.appTransactionId]).contains("k-fish"), "found by appTransactionId")

        // 5. The studio's past orders of the second game, from its own table.
        let past = folder + "/past.csv"
        try """
        order_id,account_id,product_id,created_at,state,transaction_id
        old-1,player-9,fish_10,2025-06-01,delivered,3999999999000001
        old-2,player-9,kitten_vip,2025-07-01,delivered,3999999999000002
        """.write(toFile: past, atomically: true, encoding: .utf8)
        #expect(try await run(["import", "orders", past, "--reason", "history"]).contains("imported 2 orders"))
        let kittenOrders = try await run(["order", "list", "--app", Self.kitten])
        #expect(kittenOrders.contains("old-1") && kittenOrders.contains("k-fish") && !kittenOrders.contains("d-coins"), "\(kittenOrders)")

        // A purchase Kitten's Apple knows and no game server submitted: backfilled as Kitten's.
        let unsent = await kittenApple.ledger.purchase(appleId: "unsent@icloud", productId: "fish_10", kind: .consumable)
        let asDragon = try await CLIErrorTests.run(
            ["backfill", unsent.transactionId, "--reason", "ticket", "--config", config], environment: environment)
        #expect(asDragon.0 != 0, "the first game's Apple does not know it: \(asDragon.1)\(asDragon.2)")
        #expect(try await run(["backfill", unsent.transactionId, "--app", Self.kitten, "--reason", "ticket"]).contains("1 claimed by no order"))

        // 6. The desk: both games in one console, one game's orders by app:.
        let prefix = environment["IAPDESK_DB"].map { "IAPDESK_DB=\($0) " } ?? ""
        let tmux = try Tmux.start("\(prefix)\(binary) console --config \(config)", cols: 120, rows: 36)
        defer { tmux.stop() }
        let list = await tmux.screen(waitingFor: { $0.contains("Orders") && $0.contains("d-coins") }, timeout: 20)
        #expect(list.contains("2 apps"), "the header counts the games: \(list)")
        try tmux.send("/")
        try tmux.run("send-keys -t \(tmux.session) -l app:\(Self.kitten)")
        try tmux.send("Enter")
        let filtered = await tmux.screen(waitingFor: { $0.contains("k-fish") && !$0.contains("d-coins") })
        #expect(filtered.contains("k-vip") && filtered.contains("old-1") && !filtered.contains("d-coins"), "\(filtered)")
        try tmux.send("Enter")
        let detail = await tmux.screen(waitingFor: { $0.contains("Timeline") })
        #expect(detail.contains("app") && detail.contains(Self.kitten), "\(detail)")
        try tmux.send("q")
    }
}
