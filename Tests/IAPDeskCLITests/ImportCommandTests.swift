import Foundation
import OrderDomain
import OrderStore
import TestSupport
import Testing

@testable import IAPDeskApp
@testable import IAPDeskCLI

/// A studio's history: its past orders from its own table, as the built binary runs
/// them on both backends. Delivered orders are recorded as delivered and the game is not
/// told again; pending ones are placed and their receipts queued for Apple; every error names
/// the line and the field; a second run skips what the first imported.
@Suite("CLI: importing a studio's orders", .needsBinary)
struct ImportCommandTests {
    @Test(
        "import orders: --dry-run writes nothing, a bad line is named, delivered orders are granted once with the game not told again, pending ones wait for Apple, a second run skips all, a purchase another order holds is refused",
        arguments: Backend.all)
    func history(backend: Backend) async throws {
        let folder = Scratch.url("iapdesk-import-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let location = try await backend.freshLocation()
        let db: String =
            switch location {
            case .sqlite(let path): path
            case .postgres(let url): url
            }
        let store = try await OrderStore.open(location, settings: .test)
        for product in TestCatalogue.all { try await store.catalogue.upsert(product) }
        try await SimulatorFiles.makeAdminIfNew(store)
        await store.close()

        let csv = folder.appendingPathComponent("orders.csv").path
        try """
        order_id,account_id,product_id,quantity,created_at,state,transaction_id,receipt_data
        h-1,acct-1,coins_60,3,2025-03-01T08:00:00Z,delivered,tx-h-1,
        h-2,acct-2,no_ads,,2025-04-01,delivered,,
        h-3,acct-3,coins_60,1,2025-05-01T08:00:00Z,pending,,cmVjZWlwdA==
        h-4,acct-1,coins_60,1,2025-05-02T08:00:00Z,pending,,
        """.write(toFile: csv, atomically: true, encoding: .utf8)
        func run(_ arguments: [String]) async throws -> (Int32, String, String) { try await CLIErrorTests.run(arguments + ["--db", db]) }

        var (status, output, error) = try await run(["import", "orders", csv, "--dry-run", "--reason", "migration"])
        #expect(status == 0 && output.contains("would import 4 orders") && output.contains("2 delivered, 2 placed"), "\(output)\(error)")
        var check = try await OrderStore.open(location, settings: .test)
        #expect(try await check.reports.counts().total == 0, "a dry run writes nothing")
        await check.close()

        let bad = folder.appendingPathComponent("bad.jsonl").path
        try #"{"order_id":"j-1","account_id":"a","product_id":"coins_60","created_at":"2025-01-01","state":"pending"}"#.appending(
            "\n" + #"{"order_id":"j-2","account_id":"a","product_id":"coins_60","created_at":"yesterday","state":"pending"}"#
        ).write(toFile: bad, atomically: true, encoding: .utf8)
        (status, _, error) = try await run(["import", "orders", bad, "--reason", "migration"])
        #expect(status != 0 && error.contains("bad.jsonl:2: created_at"), "\(error)")

        (status, output, error) = try await run(["import", "orders", csv, "--reason", "migration from the studio's table"])
        #expect(status == 0 && output.contains("imported 4 orders") && output.contains("2 delivered, 2 placed"), "\(output)\(error)")
        check = try await OrderStore.open(location, settings: .test)
        let h1 = try #require(try await check.orders.find("h-1"))
        #expect(h1.state == .delivered && h1.quantity == 3 && h1.transactionId == "tx-h-1")
        #expect(try await check.orders.detail("h-1").grants.count == 1)
        #expect(try await check.orders.find("h-2")?.state == .delivered)
        #expect(try await check.orders.find("h-3")?.state == .receiptReceived, "its receipt waits for the worker to ask Apple")
        #expect(try await check.orders.find("h-4")?.state == .pendingPayment)
        let events = try await check.outbox.events(orderId: "h-1").map(\.event)
        #expect(events.allSatisfy { $0.confirmedAt != nil && $0.confirmedVia == "import" }, "the game gave it long ago: \(events)")
        #expect(try await check.reports.counts().gameNotTold == 0)
        #expect(try await check.audit.entries().filter { $0.action == .orderImport }.count == 4)
        await check.close()
        (status, output, _) = try await run(["audit", "verify"])
        #expect(output.contains("every grant has its audit entry"), "\(output)")

        // A run cut short is run again: what is there is skipped.
        (status, output, error) = try await run(["import", "orders", csv, "--reason", "migration, again"])
        #expect(status == 0 && output.contains("4 already there"), "\(output)\(error)")

        // One purchase, two orders: the second is refused, naming the first.
        let twice = folder.appendingPathComponent("twice.csv").path
        try "order_id,account_id,product_id,created_at,state,transaction_id\nh-9,acct-9,coins_60,2025-06-01,delivered,tx-h-1\n".write(
            toFile: twice, atomically: true, encoding: .utf8)
        (status, _, error) = try await run(["import", "orders", twice, "--reason", "migration"])
        #expect(status != 0 && error.contains("tx-h-1") && error.contains("h-1"), "\(error)")
    }
}
