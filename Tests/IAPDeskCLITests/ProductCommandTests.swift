import Foundation
import OrderDomain
import OrderStore
import SyntheticData
import TestSupport
import Testing

@testable import IAPDeskApp
@testable import IAPDeskCLI

/// `iapdesk product` run as the built binary, as a studio adopting iapdesk would: its
/// catalogue imported from CSV and TOML (CJK names), checked first with --dry-run, an error
/// naming the line and the field, then listed and retired.
@Suite("CLI: the catalogue", .needsBinary)
struct ProductCommandTests {
    @Test(
        "product import --dry-run changes nothing; import adds from CSV and TOML; a bad line is named; list shows prices and groups; retire takes it off sale")
    func catalogue() async throws {
        let folder = Scratch.url("iapdesk-products-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let db = folder.appendingPathComponent("store.sqlite").path
        let store = try await OrderStore.open(.sqlite(path: db), settings: StoreSettings(bundleId: "com.example.dragonclicker"))
        try await SimulatorFiles.makeAdminIfNew(store)
        await store.close()
        let csv = folder.appendingPathComponent("products.csv").path
        try """
        id,type,name,price,currency,group,level,duration_days,gives
        gems_100,consumable,100 颗宝石,6.00,CNY,,,,"gems:100,bonus_chest"
        vip_month,auto_renewable,VIP 月卡,25,CNY,vip,2,,
        vip_year,auto_renewable,VIP 年卡,198.00,CNY,vip,1,,
        """.write(toFile: csv, atomically: true, encoding: .utf8)
        let toml = folder.appendingPathComponent("more.toml").path
        try """
        [[products]]
        id = "pass_7d"
        type = "non_renewing"
        name = "7 日通行证"
        price = "3.00"
        currency = "CNY"
        duration_days = 7
        """.write(toFile: toml, atomically: true, encoding: .utf8)

        let (dry, dryOut, _) = try await CLIErrorTests.run(["product", "import", csv, "--dry-run", "--reason", "launch", "--db", db])
        #expect(dry == 0 && dryOut.contains("would add gems_100"), "\(dryOut)")
        #expect(try await CLIErrorTests.run(["product", "list", "--db", db]).1.contains("catalogue is empty"), "a dry run changes nothing")
        #expect(try await CLIErrorTests.run(["product", "import", csv, "--reason", "launch", "--db", db]).0 == 0)
        #expect(try await CLIErrorTests.run(["product", "import", toml, "--reason", "launch", "--db", db]).0 == 0)
        let (_, list, _) = try await CLIErrorTests.run(["product", "list", "--db", db])
        #expect(list.contains("100 颗宝石") && list.contains("6.00 CNY") && list.contains("group vip level 1") && list.contains("7 days"), "\(list)")
        #expect(list.contains("bonus_chest:1,gems:100"), "what the game gives, as the catalogue says it: \(list)")
        let (again, againOut, _) = try await CLIErrorTests.run(["product", "import", csv, "--dry-run", "--reason", "x", "--db", db])
        #expect(again == 0 && againOut.contains("unchanged gems_100"), "\(againOut)")

        let bad = folder.appendingPathComponent("bad.csv").path
        try "id,type,name,price,currency\ngems_200,consumable,200 gems,12.00,CNY\ngems_300,consumable,300 gems,1.2.3,CNY\n".write(
            toFile: bad, atomically: true, encoding: .utf8)
        let (failed, _, said) = try await CLIErrorTests.run(["product", "import", bad, "--reason", "x", "--db", db])
        #expect(failed != 0 && said.contains("bad.csv:3: price"), "\(said)")
        try "id,type,name,price,currency,gives\ngems_200,consumable,200 gems,12.00,CNY,gems:lots\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let (refused, _, why) = try await CLIErrorTests.run(["product", "import", bad, "--reason", "x", "--db", db])
        #expect(refused != 0 && why.contains("bad.csv:2: gives"), "\(why)")

        #expect(try await CLIErrorTests.run(["product", "retire", "gems_100", "--reason", "replaced", "--db", db]).0 == 0)
        #expect(try await CLIErrorTests.run(["product", "show", "gems_100", "--db", db]).1.contains("retired"))

        // Apple sold something the catalogue lacks: listed for the admin, with how to add it.
        #expect(try await CLIErrorTests.run(["product", "unknown", "--db", db]).1.contains("Every product Apple sold is in the catalogue"))
        let reopened = try await OrderStore.open(.sqlite(path: db), settings: StoreSettings(bundleId: "com.example.dragonclicker"))
        let submission = try await reopened.paidOrder("u-1", account: "p-u", product: "vip_month")
        _ = try await reopened.apple.apply(
            orderId: "u-1", submissionId: submission,
            report: validReport(
                [tx("u-tx-1", product: "vip_month", at: t0 + 100), tx("u-tx-2", product: "gems_5000", at: t0 + 200)], bundle: "com.example.dragonclicker"),
            at: t0 + 3000)
        await reopened.close()
        let (status, unknown, _) = try await CLIErrorTests.run(["product", "unknown", "--db", db])
        #expect(status == 0 && unknown.contains("gems_5000") && unknown.contains("iapdesk product add gems_5000"), "\(unknown)")
    }
}
