import AppStoreSimulator
import ArgumentParser
import Foundation
import OrderDomain
import OrderStore
import SyntheticData
import TestSupport
import Testing

@testable import IAPDeskApp
@testable import IAPDeskCLI

/// A store and an `iapdesk.toml` pointing every Apple URL and key at `simulator`, with the
/// operator at the keyboard an admin: what the CLI tests that act on Apple's side start from.
struct SimulatedDesk {
    let folder: String
    let db: String
    let config: String

    static func make(_ simulator: AppStoreSimulator, server: SimulatorServer, named name: String, timeoutSeconds: Int = 30) async throws
        -> SimulatedDesk
    {
        let folder = Scratch.url("iapdesk-cli-\(name)-\(UUID().uuidString.prefix(8))").path
        let files = try SimulatorFiles.write(simulator, into: folder)
        let db = folder + "/store.sqlite"
        let store = try await OrderStore.open(.sqlite(path: db), settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        try await SimulatorFiles.makeAdminIfNew(store)
        await store.close()
        let config = folder + "/iapdesk.toml"
        try """
        [store]
        db = "\(db)"
        bundle_id = "\(DemoCatalogue.bundleId)"
        [apple]
        simulator = "\(server.baseURL)"
        shared_secret_file = "\(files.secret)"
        key_file = "\(files.key)"
        key_id = "\(simulator.apiKey.keyId)"
        issuer_id = "\(simulator.apiKey.issuerId)"
        timeout_seconds = \(timeoutSeconds)
        [receipts]
        trust_roots = "\(files.roots)"
        """.write(toFile: config, atomically: true, encoding: .utf8)
        return SimulatedDesk(folder: folder, db: db, config: config)
    }

    func open() async throws -> OrderStore { try await OrderStore.open(.sqlite(path: db), settings: StoreSettings(bundleId: DemoCatalogue.bundleId)) }
}

@Suite("CLI: acting on Apple's side")
struct AppleActionCommandTests {
    @Test(
        "subscription extend-all asks Apple and extensions --refresh reads its counts; notifications apple reads Apple's history; rebind refuses an order id that is no UUID"
    )
    func commands() async throws {
        let simulator = try AppStoreSimulator(bundleId: DemoCatalogue.bundleId, sharedSecret: "cli-secret")
        let server = try await SimulatorServer.start(simulator)
        defer { Task { await server.stop() } }
        let desk = try await SimulatedDesk.make(simulator, server: server, named: "apple-actions")
        var store = try await desk.open()
        let ids = try await SimulatedOrders.seed(store, simulator: simulator, count: 5, sandboxEvery: 0)
        await store.close()
        try await IAPDesk.run(["stuck", "reverify", "--all", "--config", desk.config])
        store = try await desk.open()
        let vip = try #require(try await store.orders.find(ids[2]), "the third seeded order is a vip_monthly subscription")
        let otid = try #require(vip.originalTransactionId)
        #expect(try await store.subscriptions.detail(otid).subscription?.ownerAccount == vip.accountId)
        await store.close()
        let before = try #require(await simulator.ledger.chain(originalTransactionId: otid).last?.expiresDate)

        try await IAPDesk.run(["subscription", "extend-all", "vip_monthly", "--days", "3", "--reason-code", "3", "--reason", "outage", "--config", desk.config])
        var done: MassExtension?
        for _ in 0..<50 where done?.completeAt == nil {
            try await IAPDesk.run(["subscription", "extensions", "--refresh", "--config", desk.config])
            store = try await desk.open()
            done = try await store.extensions.mass().first
            await store.close()
            if done?.completeAt == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(done?.succeeded == 1 && done?.failed == 0 && done?.operatorName == OperatorIdentity.current, "\(String(describing: done))")
        let after = await simulator.ledger.chain(originalTransactionId: otid).last?.expiresDate
        #expect(after == before.addingTimeInterval(3 * 86_400), "Apple extended it by 3 days")

        let yesterday = Date().addingTimeInterval(-86_400).formatted(.iso8601)
        try await IAPDesk.run(["notifications", "apple", "--since", yesterday, "--config", desk.config])
        await #expect(throws: StoreError.self, "sim_000003 is no UUID") {
            try await IAPDesk.run(["subscription", "rebind", otid, "--reason", "ticket 9", "--config", desk.config])
        }
    }

    @Test(
        "backfill records what Apple's Transaction History knows of a purchase the store never saw: every period, as orphans, audited; again, nothing new; support may not"
    )
    func backfill() async throws {
        let simulator = try AppStoreSimulator(bundleId: DemoCatalogue.bundleId, sharedSecret: "cli-secret")
        let server = try await SimulatorServer.start(simulator)
        defer { Task { await server.stop() } }
        let desk = try await SimulatedDesk.make(simulator, server: server, named: "backfill")
        // A subscriber from before iapdesk: bought and renewed twice, never seen by the store.
        let bought = await simulator.ledger.purchase(appleId: "old@icloud", productId: "vip_monthly", kind: .autoRenewable)
        for _ in 0..<2 { _ = try await simulator.ledger.renew(originalTransactionId: bought.originalTransactionId) }
        let ids = desk.folder + "/ids.txt"
        try "# from the studio's old database\n\(bought.transactionId)\n".write(toFile: ids, atomically: true, encoding: .utf8)

        try await IAPDesk.run(["backfill", "--file", ids, "--reason", "studio history", "--config", desk.config])
        let store = try await desk.open()
        let orphans = try await store.orders.orphans().filter { $0.transaction.originalTransactionId == bought.originalTransactionId }
        #expect(orphans.count == 3, "the purchase and its two renewals: \(orphans.map(\.transaction.transactionId))")
        let audit = try #require(try await store.audit.entries().first { $0.action == .backfill })
        #expect(audit.reason == "studio history" && audit.said.contains("3 listed, 3 new"), "\(audit.said)")
        let again = try await store.apple.recordHistory(
            orphans.map(\.transaction), environment: .production, asked: bought.transactionId, by: Operator(name: "ada", role: .admin), reason: "again")
        #expect(again.listed == 3 && again.new == 0 && again.unclaimed == 3, "\(again)")
        await #expect(throws: StoreError.self) {
            try await store.apple.recordHistory([], environment: .production, asked: "1", by: Operator(name: "lin", role: .support), reason: "mine")
        }
        await store.close()
    }

    @Test("backfill --apple-accounts asks Get App Transaction Info for purchases only verifyReceipt answered, and the store then knows their Apple Account")
    func appleAccounts() async throws {
        let simulator = try AppStoreSimulator(bundleId: DemoCatalogue.bundleId, sharedSecret: "cli-secret")
        let server = try await SimulatorServer.start(simulator)
        defer { Task { await server.stop() } }
        let desk = try await SimulatedDesk.make(simulator, server: server, named: "apple-accounts")
        let bought = await simulator.ledger.purchase(appleId: "receipt-only@icloud", productId: "coins_60")
        var store = try await desk.open()
        for product in DemoCatalogue.products { try await store.catalogue.upsert(product) }
        // Delivered from a verifyReceipt answer: Apple named the purchase, not the Apple Account.
        try await store.orders.place(orderId: "vr-1", accountId: "acct-vr", productId: "coins_60", at: .now() - 60_000)
        let submission = try await store.orders.submit(orderId: "vr-1", receiptData: "r", claimedTransactionId: bought.transactionId)
        _ = try await store.apple.apply(
            orderId: "vr-1", submissionId: submission,
            report: validReport([tx(bought.transactionId, at: .now() - 30_000)], bundle: DemoCatalogue.bundleId))
        #expect(try await store.apple.purchasesWithoutAppleAccount().map(\.transactionId) == [bought.transactionId])
        await store.close()

        try await IAPDesk.run(["backfill", "--apple-accounts", "--reason", "R8 needs them", "--config", desk.config])
        store = try await desk.open()
        #expect(try await store.orders.detail("vr-1").transactions.first?.transaction.appTransactionId == bought.appTransactionId)
        #expect(try await store.apple.purchasesWithoutAppleAccount().isEmpty)
        #expect(try await store.audit.entries().contains { $0.action == .backfillAppleAccount && $0.reason == "R8 needs them" })
        await store.close()
    }

    @Test(
        "import orders takes a StoreKit 2 signed transaction for a pending order, checked against the trust roots as the intake checks it; a forged one is refused naming the line"
    )
    func importSignedTransaction() async throws {
        let simulator = try AppStoreSimulator(bundleId: DemoCatalogue.bundleId, sharedSecret: "cli-secret")
        let server = try await SimulatorServer.start(simulator)
        defer { Task { await server.stop() } }
        let desk = try await SimulatedDesk.make(simulator, server: server, named: "import-sk2")
        var store = try await desk.open()
        for product in DemoCatalogue.products { try await store.catalogue.upsert(product) }
        await store.close()
        let bought = await simulator.ledger.purchase(appleId: "sk2@icloud", productId: "coins_60")
        let signed = try await simulator.signedTransaction(bought)
        let file = desk.folder + "/sk2.jsonl"
        let line =
            #"{"order_id":"sk2-1","account_id":"acct-sk2","product_id":"coins_60","created_at":"2026-01-01","state":"pending","signed_transaction":"\#(signed)"}"#
        try line.write(toFile: file, atomically: true, encoding: .utf8)
        try await IAPDesk.run(["import", "orders", file, "--reason", "studio history", "--config", desk.config])
        store = try await desk.open()
        let order = try #require(try await store.orders.find("sk2-1"))
        let submission = try #require(try await store.orders.detail("sk2-1").submissions.first)
        #expect(order.state == .receiptReceived && submission.claimedTransactionId == bought.transactionId)
        await store.close()

        let forged = desk.folder + "/forged.jsonl"
        var parts = signed.split(separator: ".").map(String.init)
        parts[1] = Data(#"{"transactionId":"1","productId":"coins_60","bundleId":"com.iapdesk.demo"}"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "")
        try line.replacingOccurrences(of: "sk2-1", with: "sk2-2").replacingOccurrences(of: signed, with: parts.joined(separator: "."))
            .write(toFile: forged, atomically: true, encoding: .utf8)
        let (status, _, error) = try await CLIErrorTests.run(["import", "orders", forged, "--reason", "x", "--config", desk.config])
        #expect(status != 0 && error.contains("forged.jsonl:1: signed_transaction"), "\(error)")
        store = try await desk.open()
        #expect(try await store.orders.find("sk2-2") == nil, "checked before anything was written")
        await store.close()
    }
}
