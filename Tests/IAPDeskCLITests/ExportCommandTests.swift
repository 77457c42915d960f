import Foundation
import OrderDomain
import OrderStore
import TestSupport
import Testing

@testable import IAPDeskApp
@testable import IAPDeskCLI

/// Finance's exports run as the built binary: `order list` between two days as CSV and
/// JSON, and `report deliveries|refunds --month` as CSV.
@Suite("CLI: exports and reports", .needsBinary)
struct ExportCommandTests {
    @Test(
        "order list --since --until --format csv|json exports the span with delivery, refund and price, a hostile account defused; report deliveries --month totals October with sandbox apart and refund-rates gives its refund rates; a bad month is refused"
    )
    func exports() async throws {
        let db = Scratch.url("iapdesk-exports-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) } }
        let store = try await OrderStore.open(.sqlite(path: db), settings: .test)
        for product in TestCatalogue.all { try await store.catalogue.upsert(product) }
        try await store.deliveredOrder("oct-1", quantity: 3, at: t0 - .hours(17 * 24), storefront: "CHN")
        try await store.deliveredOrder("oct-2", product: "no_ads", at: t0 - .hours(5 * 24), environment: .sandbox)
        try await store.deliveredOrder("nov-1", at: t0 + .hours(1 * 24))
        try await store.orders.place(orderId: "oct-x", accountId: "=cmd|' /C calc'!A0", productId: "coins_60", at: t0 - .hours(3 * 24))
        _ = try await store.apple.recordRefund(transactionId: "tx-oct-1", cancelledAt: t0 + .hours(2 * 24), at: t0 + .hours(2 * 24))
        try await SimulatorFiles.makeAdminIfNew(store)
        await store.close()

        let (status, csv, error) = try await CLIErrorTests.run(
            ["order", "list", "--since", "2026-10-01", "--until", "2026-11-01", "--format", "csv", "--all", "--db", db])
        #expect(status == 0, "\(error)")
        let lines = csv.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "order_id,account_id,product_id,quantity,state,environment,transaction_id,created_at,delivered_at,refunded_at,price_minor,currency,storefront,app,store"
        )
        #expect(lines.count == 4, "three October orders, November's left out: \(csv)")
        #expect(
            lines.contains {
                $0.hasPrefix("oct-1,acct-oct-1,coins_60,3,refunded,Production,tx-oct-1,2026-10-15T00:00:00Z,")
                    && $0.hasSuffix(",2026-11-03T00:00:00Z,600,CNY,CHN,com.example.game,app_store")
            }, "\(csv)")
        #expect(lines.contains { $0.hasPrefix("oct-x,'=cmd|' /C calc'!A0,") }, "a formula is defused: \(csv)")

        let (_, json, _) = try await CLIErrorTests.run(["order", "list", "--since", "2026-10-01", "--until", "2026-11-01", "--format", "json", "--db", db])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]], "\(json)")
        #expect(parsed.count == 3 && parsed.contains { $0["order_id"] as? String == "oct-2" && $0["environment"] as? String == "Sandbox" })
        #expect(parsed.contains { $0["order_id"] as? String == "oct-x" && $0["delivered_at"] is NSNull })

        let (_, report, _) = try await CLIErrorTests.run(["report", "deliveries", "--month", "2026-10", "--format", "csv", "--db", db])
        #expect(
            report
                == "store,product_id,environment,count,units,price_minor,currency,amount_minor\napp_store,coins_60,Production,1,3,600,CNY,1800\napp_store,no_ads,Sandbox,1,1,1800,CNY,1800\n",
            "\(report)")
        let (_, refunds, _) = try await CLIErrorTests.run(["report", "refunds", "--month", "2026-11", "--db", db])
        #expect(refunds.contains("COINS_60") == false && refunds.contains("coins_60") && refunds.contains("1800"), "\(refunds)")
        let (_, rates, _) = try await CLIErrorTests.run(["report", "refund-rates", "--month", "2026-10", "--format", "csv", "--db", db])
        #expect(rates.contains("key,delivered,refunded,rate_permille,accounts\ncoins_60,1,1,1000,\nno_ads,1,0,0,"), "\(rates)")
        #expect(rates.contains("acct-oct-1,1,1,1000,"), "the account with the refund: \(rates)")
        let (refused, _, said) = try await CLIErrorTests.run(["report", "refunds", "--month", "2026-13", "--db", db])
        #expect(refused != 0 && said.contains("--month"), "\(said)")
    }
}
