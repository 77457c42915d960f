import AppStoreSimulator
import ArgumentParser
import ConfigFiles
import Foundation
import OrderDomain
import OrderStore
import Presentation
import SyntheticData
import TestSupport
import Testing

@testable import IAPDeskApp
@testable import IAPDeskCLI

/// `iapdesk order reverify` and `iapdesk stuck reverify` as an operator runs them: a
/// configuration file pointing at a simulator (the files `iapdesk simulator` writes), a
/// store seeded with receipts the simulator signed.
@Suite("Re-verify commands against the simulator")
struct ReverifyCommandTests {
    @Test("order reverify delivers through the Server API; stuck reverify clears the rest; a misconfigured key is refused by name")
    func reverifyCommands() async throws {
        let simulator = try AppStoreSimulator(bundleId: DemoCatalogue.bundleId, sharedSecret: "cli-secret")
        let server = try await SimulatorServer.start(simulator)
        let desk = try await SimulatedDesk.make(simulator, server: server, named: "sim", timeoutSeconds: 5)
        let (folder, db, config) = (desk.folder, desk.db, desk.config)
        let store = try await desk.open()
        let ids = try await SimulatedOrders.seed(store, simulator: simulator, count: 6, sandboxEvery: 3)
        // One order Apple once turned down (21010), as a wrong configuration would have.
        let turnedDown = try await store.apple.apply(orderId: ids[1], submissionId: nil, report: statusReport(21010))
        #expect(turnedDown.order.state == .rejected && turnedDown.order.reason == .appleStatus(21010))
        await store.close()

        try await IAPDesk.run(["order", "reverify", ids[0], "--config", config])
        // An admin re-verifies the orders rejected for one reason code (Apple's status alone will do).
        let (badStatus, _, badError) = try await CLIErrorTests.run(["stuck", "reverify", "--rejected", "r5.nonsense", "--config", config])
        #expect(badStatus != 0 && badError.contains("no such reason code"), "\(badError)")
        let (rejectedStatus, rejectedOut, rejectedError) = try await CLIErrorTests.run(["stuck", "reverify", "--rejected", "21010", "--config", config])
        #expect(rejectedStatus == 0 && rejectedOut.contains("1 delivered"), "\(rejectedOut) \(rejectedError)")
        try await IAPDesk.run(["stuck", "reverify", "--all", "--config", config])
        let after = try await OrderStore.open(.sqlite(path: db), settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        for id in ids {
            let detail = try await after.orders.detail(id)
            #expect(detail.order.state == .delivered, "\(id): \(detail.order.lastError ?? "")")
            #expect(detail.attempts.last?.method == .serverAPI)
        }
        // The operator's re-verify is audited under their name.
        let audit = try await after.orders.detail(ids[0]).audit
        #expect(audit.contains { $0.action == .reverify && $0.actor == OperatorIdentity.current })
        let transactionId = try #require(try await after.orders.find(ids[0])?.transactionId)
        await after.close()

        // The receipt screen's page on the command line: Apple's signed Server API answer read
        // back and verified again, the store's verdict, the order's own transaction marked.
        let (status, page, error) = try await CLIErrorTests.run(["order", "receipt", ids[0], "--config", config])
        #expect(status == 0, "\(error)")
        #expect(page.contains("Apple's answer to the latest call: server_api"), "\(page)")
        #expect(page.contains("The store's verdict: valid → delivered"))
        #expect(page.contains("✓ bundle id: \(DemoCatalogue.bundleId)"))
        #expect(page.contains("▶ \(transactionId)"), "the transactions the rules merged, this order's marked")
        #expect(!page.contains("✗") && !page.contains(ReceiptPresentation.notReadBack))
        let (_, raw, _) = try await CLIErrorTests.run(["order", "receipt", ids[0], "--raw", "--config", config])
        #expect(raw.contains("signedTransactionInfo"), "--raw prints Apple's stored answer itself")

        // A viewer may re-verify nothing: every order fails, and so does the run (exit 1).
        let viewerDb = folder + "/viewer.sqlite"
        let viewerStore = try await OrderStore.open(.sqlite(path: viewerDb), settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        try await viewerStore.operators.add(name: "someone-else", role: .admin, by: Operator(name: "someone-else", role: .admin))
        _ = try await SimulatedOrders.seed(viewerStore, simulator: simulator, count: 2, sandboxEvery: 0)
        await viewerStore.close()
        let viewerConfig = folder + "/viewer.toml"
        try String(contentsOfFile: config, encoding: .utf8).replacingOccurrences(of: db, with: viewerDb).write(
            toFile: viewerConfig, atomically: true, encoding: .utf8)
        await #expect(throws: ExitCode.failure) { try await IAPDesk.run(["stuck", "reverify", "--all", "--config", viewerConfig]) }

        // Half a Server API configuration is an error that names what is missing.
        try """
        [store]
        db = "\(db)"
        [apple]
        key_id = "ABC"
        """.write(toFile: config, atomically: true, encoding: .utf8)
        await #expect(throws: ConfigError.self) { try await IAPDesk.run(["order", "reverify", ids[0], "--config", config]) }
        await server.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    @Test("refunds: the queue, one request's evidence, and an answer sent to Apple once with the operator's reason; a second answer fails")
    func refundCommands() async throws {
        let simulator = try AppStoreSimulator(bundleId: DemoCatalogue.bundleId, sharedSecret: "cli-secret")
        let server = try await SimulatorServer.start(simulator)
        let desk = try await SimulatedDesk.make(simulator, server: server, named: "refunds")
        let (db, config) = (desk.db, desk.config)
        let store = try await desk.open()
        let seeded = try await SimulatedOrders.seed(store, simulator: simulator, count: 6, sandboxEvery: 0)
        var consumable: String?
        for id in seeded where consumable == nil { if try await store.orders.find(id)?.productId.hasPrefix("coins") == true { consumable = id } }
        let orderId = try #require(consumable, "a pack among the seeded orders")
        await store.close()
        try await IAPDesk.run(["order", "reverify", orderId, "--config", config])

        // Apple asks about the purchase (as serve would store it: verified, then applied).
        var opened = try await OrderStore.open(.sqlite(path: db), settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        let tid = try #require(try await opened.orders.find(orderId)?.transactionId)
        let purchase = try #require(await simulator.ledger.purchase(transactionId: tid))
        let facts = NotificationFacts(
            uuid: UUID().uuidString.lowercased(), type: "CONSUMPTION_REQUEST", signedDate: .now(), environment: "Production",
            transaction: AppleTransaction(
                transactionId: tid, originalTransactionId: purchase.originalTransactionId, productId: purchase.productId,
                purchaseDate: Millis(purchase.purchaseDate.timeIntervalSince1970 * 1000)),
            consumptionRequestReason: "UNINTENDED_PURCHASE")
        guard
            case .stored(let id) = try await opened.notifications.receive(
                IncomingNotification(endpoint: .production, via: .receiver, raw: "{}", rejection: nil, facts: facts))
        else { throw CLIError("the request was not stored") }
        try await opened.notifications.apply(key: tid)
        await opened.close()

        try await IAPDesk.run(["refunds", "--config", config])
        try await IAPDesk.run(["refunds", "show", "\(id)", "--config", config])
        await #expect(throws: (any Error).self, "--consumed is a percentage") {
            try await IAPDesk.run(["refunds", "answer", "\(id)", "--consented", "--consumed", "180", "--reason", "x", "--config", config])
        }
        try await IAPDesk.run([
            "refunds", "answer", "\(id)", "--consented", "--consumed", "80", "--prefer", "decline", "--reason", "ticket 77: coins spent",
            "--config", config,
        ])
        let atApple = try #require(await simulator.consumptionAnswer(transactionId: tid))
        #expect(atApple["consumptionPercentage"] == "80000" && atApple["refundPreference"] == "DECLINE")
        await #expect(throws: AppleActionError.self, "Apple takes one answer") {
            try await IAPDesk.run(["refunds", "answer", "\(id)", "--consented", "--reason", "again", "--config", config])
        }
        opened = try await OrderStore.open(.sqlite(path: db), settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        let request = try await opened.refunds.request(id)
        #expect(request.sent?.operatorName == OperatorIdentity.current && request.sent?.reason == "ticket 77: coins spent")
        #expect(request.order?.orderId == orderId && request.deliveredAt != nil)
        await opened.close()
        await server.stop()
    }
}
