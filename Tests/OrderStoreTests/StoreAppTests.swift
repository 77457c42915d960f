import Foundation
import OrderDomain
import TestSupport
import Testing

@testable import OrderStore

/// The apps a store serves: it records the bundle ids it is first opened with, a
/// configuration for another studio's game is refused with both names instead of checking
/// every receipt against the wrong one (R5), and an admin adds the studio's next game.
@Suite("Store: the app a store serves")
struct StoreAppTests {
    @Test(
        "Opened for com.a, the store refuses a configuration for com.b with both names; a default bundle id takes the store's; an old store records the first configured one",
        arguments: Backend.all)
    func oneApp(backend: Backend) async throws {
        let location = try await backend.freshLocation()
        let first = try await OrderStore.open(location, settings: StoreSettings(bundleId: "com.studio.dragon"))
        await first.close()

        await #expect(throws: StoreSetupError.otherApp(store: "com.studio.dragon", configured: "com.studio.kitten")) {
            try await OrderStore.open(location, settings: StoreSettings(bundleId: "com.studio.kitten"))
        }

        var unconfigured = StoreSettings(bundleId: "com.example.game")
        unconfigured.bundleIdConfigured = false
        let adopted = try await OrderStore.open(location, settings: unconfigured)
        #expect(adopted.settings.bundleId == "com.studio.dragon", "R5 checks receipts against the store's own app")
        await adopted.close()

        // A store from before this check has no record: the first configured open writes it.
        let old = try await backend.freshLocation()
        var none = StoreSettings(bundleId: "com.example.game")
        none.bundleIdConfigured = false
        await (try await OrderStore.open(old, settings: none)).close()
        await (try await OrderStore.open(old, settings: StoreSettings(bundleId: "com.studio.kitten"))).close()
        await #expect(throws: StoreSetupError.otherApp(store: "com.studio.kitten", configured: "com.studio.dragon")) {
            try await OrderStore.open(old, settings: StoreSettings(bundleId: "com.studio.dragon"))
        }
    }

    static let dragon = "com.studio.dragon"
    static let kitten = "com.studio.kitten"

    @Test(
        "Two games in one store: each product, order and verdict is its app's; R5 checks a receipt against the order's app; app: lists one game's orders; a product without an app is refused in a store of two",
        arguments: Backend.all)
    func twoApps(backend: Backend) async throws {
        let location = try await backend.freshLocation()
        defer { Backend.cleanUp(location) }
        // The studio ran Dragon alone; its configuration now names Kitten too.
        await (try await OrderStore.open(location, settings: StoreSettings(bundleId: Self.dragon))).close()
        var both = StoreSettings(bundleId: Self.dragon)
        both.apps = [Self.dragon, Self.kitten]
        var store = try await OrderStore.open(location, settings: both)
        #expect(store.settings.apps == [Self.dragon], "a configured app is not served until an admin adds it")
        let fish = Product(productId: "fish_10", type: .consumable, displayName: "10 条鱼", priceMinor: 100, currency: "CNY", app: Self.kitten)
        await #expect(throws: StoreError.self) { try await store.catalogue.define(fish, replacing: false, by: root, reason: "launch") }
        await #expect(throws: StoreError.forbidden(action: .addApps, role: .support)) {
            try await store.catalogue.addApp(StoreApp(bundleId: Self.kitten), by: alice, reason: "launch")
        }
        try await store.catalogue.addApp(StoreApp(bundleId: Self.kitten, name: "Kitten Café", appleAppId: 6_400_000_002), by: root, reason: "second game")
        await store.close()

        store = try await OrderStore.open(location, settings: both)
        #expect(store.settings.apps == [Self.dragon, Self.kitten])
        #expect(try await store.catalogue.apps().map(\.app.name) == [nil, "Kitten Café"])
        let gems = Product(productId: "gems_100", type: .consumable, displayName: "100 gems", priceMinor: 600, currency: "CNY")
        await #expect(throws: StoreError.self, "which app sells it?") { try await store.catalogue.define(gems, replacing: false, by: root, reason: "x") }
        var dragonGems = gems
        dragonGems.app = Self.dragon
        try await store.catalogue.define(dragonGems, replacing: false, by: root, reason: "launch")
        try await store.catalogue.define(fish, replacing: false, by: root, reason: "launch")
        #expect(try await store.catalogue.apps().map(\.products) == [1, 1])

        // Each order is its product's app's; a receipt of Dragon cannot pay for a Kitten order.
        let d = try await store.paidOrder("d-1", account: "p-1", product: "gems_100")
        let k = try await store.paidOrder("k-1", account: "p-1", product: "fish_10")
        #expect(try await store.orders.find("d-1")?.app == Self.dragon)
        #expect(try await store.orders.find("k-1")?.app == Self.kitten)
        let wrong = try await store.apple.apply(
            orderId: "k-1", submissionId: k, report: validReport([tx("t-k", product: "fish_10", at: t0 + 100)], bundle: Self.dragon), at: t0 + 3000)
        #expect(wrong.order.state == .rejected)
        #expect(wrong.order.lastError?.contains("\(Self.dragon) ≠ \(Self.kitten)") == true, "\(wrong.order.lastError ?? "")")
        let right = try await store.apple.apply(
            orderId: "d-1", submissionId: d, report: validReport([tx("t-d", product: "gems_100", at: t0 + 100)], bundle: Self.dragon), at: t0 + 3000)
        #expect(right.order.state == .delivered)

        #expect(try await store.orders.page(OrderFilter(app: Self.kitten)).items.map(\.orderId) == ["k-1"])
        #expect(try await store.orders.page(OrderFilter(state: .delivered, app: Self.dragon)).items.map(\.orderId) == ["d-1"])
        #expect(try await store.orders.records(OrderFilter(accountId: "p-1")).items.map(\.app).sorted() == [Self.dragon, Self.kitten])
        await #expect(throws: StoreError.self, "its app cannot change under orders") {
            var moved = fish
            moved.app = Self.dragon
            try await store.catalogue.define(moved, replacing: true, by: root, reason: "x")
        }
        await store.close()

        // Kitten's own configuration opens the studio's store too; a stranger's does not.
        await (try await OrderStore.open(location, settings: StoreSettings(bundleId: Self.kitten))).close()
        await #expect(throws: StoreSetupError.otherApp(store: "\(Self.dragon), \(Self.kitten)", configured: "com.other.game")) {
            try await OrderStore.open(location, settings: StoreSettings(bundleId: "com.other.game"))
        }
    }

    @Test(
        "One game in both stores: the configured Google Play packages are recorded as the game's apps (the same id kept apart by store); an admin names another package's game; a game the store does not serve is refused; a new version reads every app back",
        arguments: Backend.all)
    func appsAcrossStores(backend: Backend) async throws {
        let location = try await backend.freshLocation()
        defer { Backend.cleanUp(location) }
        var configured = StoreSettings(bundleId: Self.kitten)
        configured.playApps = [Self.kitten, "com.studio.kitten.lite"]
        var store = try await OrderStore.open(location, settings: configured)
        #expect(store.settings.apps == [Self.kitten], "Apple's apps, as R5 checks Apple's receipts")
        #expect(store.settings.playApps == [Self.kitten, "com.studio.kitten.lite"])
        var apps = try await store.catalogue.apps().map(\.app)
        #expect(apps.map(\.bundleId) == [Self.kitten, Self.kitten, "com.studio.kitten.lite"])
        #expect(apps.map(\.marketplace) == [.appStore, .googlePlay, .googlePlay])
        #expect(apps.map(\.game) == [Self.kitten, Self.kitten, Self.kitten], "every package sells the configured game's products")

        // A second game arrives on both stores, its Android package named differently.
        try await store.catalogue.addApp(StoreApp(bundleId: Self.dragon, name: "Dragon"), by: root, reason: "second game")
        await #expect(throws: StoreError.invalid(.app(problem: .gameNotServed("com.studio.wyvern")))) {
            try await store.catalogue.addApp(
                StoreApp(bundleId: "com.studio.dragon.android", marketplace: .googlePlay, game: "com.studio.wyvern"), by: root, reason: "typo")
        }
        await #expect(throws: StoreError.invalid(.app(problem: .appleAppIdOnlyAppStore))) {
            try await store.catalogue.addApp(
                StoreApp(bundleId: "com.studio.dragon.android", marketplace: .googlePlay, appleAppId: 1), by: root, reason: "x")
        }
        try await store.catalogue.addApp(
            StoreApp(bundleId: "com.studio.dragon.android", marketplace: .googlePlay, game: Self.dragon, name: "Dragon (Android)"), by: root,
            reason: "Android launch")
        // The lite package was Dragon's all along.
        try await store.catalogue.addApp(StoreApp(bundleId: "com.studio.kitten.lite", marketplace: .googlePlay, game: Self.dragon), by: root, reason: "fix")
        await store.close()

        store = try await OrderStore.open(location, settings: configured)
        apps = try await store.catalogue.apps().map(\.app)
        #expect(apps.count == 5)
        #expect(apps.first { $0.bundleId == "com.studio.kitten.lite" }?.game == Self.dragon, "a reopen records no package twice nor undoes the admin's game")
        #expect(apps.first { $0.bundleId == "com.studio.dragon.android" }?.name == "Dragon (Android)")
        #expect(store.settings.playApps == [Self.kitten, "com.studio.kitten.lite", "com.studio.dragon.android"])
        let audited = try await store.audit.entries().filter { $0.action == .appAdd || $0.action == .appUpdate }
        #expect(audited.map(\.said).contains("Google Play package, Dragon (Android), game com.studio.dragon"), "\(audited.map(\.said))")
        await store.close()
    }
}
