import Foundation
import OrderDomain
import TestSupport
import Testing

@testable import OrderStore

/// A studio's own catalogue: products added, changed and retired by admins,
/// audited, with subscription groups and a non-renewing product's duration; what the
/// catalogue refuses. Both backends.
@Suite("Store: the catalogue")
struct CatalogueStoreTests {
    static let gems = Product(productId: "gems_100", type: .consumable, displayName: "100 颗宝石", priceMinor: 600, currency: "CNY")
    static let vipYear = Product(
        productId: "vip_year", type: .autoRenewable, displayName: "VIP 年卡", priceMinor: 19_800, currency: "CNY", subscriptionGroup: "vip", groupLevel: 1)

    @Test(
        "An admin adds, changes and retires products, each audited with the reason; support, bad fields, a duplicate, an unknown id and a type change under orders are refused; a retired product takes no new order but its orders stand",
        arguments: Backend.all)
    func catalogue(backend: Backend) async throws {
        try await withStore(backend, catalogue: []) { store in
            try await store.catalogue.define(Self.gems, replacing: false, by: root, reason: "launch")
            try await store.catalogue.define(Self.vipYear, replacing: false, by: root, reason: "launch")
            #expect(
                try await store.catalogue.products()
                    == [Self.gems, Self.vipYear].map {
                        var product = $0; product.app = store.settings.bundleId; return product
                    })

            await #expect(throws: StoreError.forbidden(action: .changeCatalogue, role: .support)) {
                try await store.catalogue.define(Self.gems, replacing: true, by: alice, reason: "x")
            }
            var pass = Product(productId: "pass_7d", type: .nonRenewing, displayName: "7-day pass", priceMinor: 300, currency: "CNY")
            for bad in [
                pass,  // no duration: Apple gives none
                Product(productId: "x", type: .consumable, displayName: "x", priceMinor: 1, currency: "cny"),
                Product(productId: "y", type: .consumable, displayName: "y", priceMinor: 1, currency: "CNY", subscriptionGroup: "vip", groupLevel: 1),
                Product(productId: "z", type: .consumable, displayName: "z", priceMinor: 1, currency: "CNY", gives: ["gems; DROP": 1]),
                Product(productId: "w", type: .consumable, displayName: "w", priceMinor: 1, currency: "CNY", gives: ["gems": 0]),
            ] {
                await #expect(throws: StoreError.self, "\(bad)") { try await store.catalogue.define(bad, replacing: false, by: root, reason: "x") }
            }
            pass.durationDays = 7
            try await store.catalogue.define(pass, replacing: false, by: root, reason: "event")
            await #expect(throws: StoreError.self, "added twice") { try await store.catalogue.define(pass, replacing: false, by: root, reason: "x") }
            await #expect(throws: StoreError.self, "updating an unknown one") {
                try await store.catalogue.define(
                    Product(productId: "nope", type: .consumable, displayName: "n", priceMinor: 1, currency: "CNY"), replacing: true, by: root, reason: "x")
            }

            try await store.orders.place(orderId: "c-1", accountId: "p-1", productId: "gems_100")
            var cheaper = Self.gems
            cheaper.priceMinor = 500
            try await store.catalogue.define(cheaper, replacing: true, by: root, reason: "sale")
            #expect(try await store.catalogue.product("gems_100")?.priceMinor == 500)
            var retyped = Self.gems
            retyped.type = .nonConsumable
            await #expect(throws: StoreError.self, "orders name it") { try await store.catalogue.define(retyped, replacing: true, by: root, reason: "x") }

            try await store.catalogue.retire("gems_100", by: root, reason: "replaced by gems_120")
            #expect(try await store.catalogue.product("gems_100")?.retiredAt != nil)
            await #expect(throws: StoreError.productRetired("gems_100")) {
                try await store.orders.place(orderId: "c-2", accountId: "p-1", productId: "gems_100")
            }
            #expect(try await store.orders.ensure(orderId: "c-1", accountId: "p-1", productId: "gems_100").created == false, "its orders stand")
            await #expect(throws: StoreError.unknownProduct("gems_999")) {
                try await store.orders.place(orderId: "c-3", accountId: "p-1", productId: "gems_999")
            }

            let audit = try await store.audit.entries().filter { $0.target.description.hasPrefix("product:") }.map {
                "\($0.action.rawValue) \($0.reason ?? "")"
            }
            #expect(
                audit.contains("product.add launch") && audit.contains("product.update sale") && audit.contains("product.retire replaced by gems_120"),
                "\(audit)")

            // What the game is told to give, edited outside iapdesk into words it cannot read, is an
            // error naming the product, never an empty "gives" that would tell the game to give nothing.
            try await store.db.sql.raw("UPDATE products SET gives = 'gems:lots' WHERE product_id = 'gems_100'").run()
            await #expect(throws: StoreError.corrupt("product gems_100: its stored gives \"gems:lots\" do not parse")) {
                try await store.catalogue.product("gems_100")
            }
        }
    }

    @Test("A product Apple sold that the catalogue lacks is kept and listed for an admin, with its orphans, until it is added", arguments: Backend.all)
    func unknownProducts(backend: Backend) async throws {
        try await withStore(backend) { store in
            // One receipt pays the order's coins and also holds a purchase of a product no one listed.
            let submission = try await store.paidOrder("u-1", account: "p-u")
            _ = try await store.apple.apply(
                orderId: "u-1", submissionId: submission,
                report: validReport([tx("u-tx-1", at: t0 + 100), tx("u-tx-2", product: "gems_999", at: t0 + 200)]), at: t0 + 3000)
            let unknown = try await store.catalogue.unknown()
            #expect(unknown.map(\.productId) == ["gems_999"] && unknown.first?.transactions == 1 && unknown.first?.orphans == 1, "\(unknown)")
            #expect(try await store.orders.orphans().map(\.transaction.productId) == ["gems_999"], "kept, not dropped")
            try await store.catalogue.upsert(
                Product(productId: "gems_999", type: .consumable, displayName: "999 gems", priceMinor: 9800, currency: "CNY"))
            #expect(try await store.catalogue.unknown().isEmpty)
        }
    }
}
