import Foundation
import OrderDomain
import OrderStore
import SyntheticData
import TestSupport
import Testing

@testable import IAPDeskApp
@testable import IAPDeskCLI

@Suite("Synthetic data and commands")
struct SeedAndCommandTests {
    private func tempDB() -> String {
        Scratch.url("iapdesk-cli-\(UUID().uuidString).sqlite").path
    }

    private func seeded(_ path: String, orders: Int, seed: UInt64) async throws -> OrderStore {
        let store = try await OrderStore.open(.sqlite(path: path), settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        try await SyntheticStore(orders: orders, seed: seed, anchor: 1_793_491_200_000).write(into: store)
        return store
    }

    @Test("iapdesk seed --play-share 0.5: about half the orders are paid at Google Play; a share outside 0…1 is refused")
    func seedBothStores() async throws {
        let db = tempDB()
        let (status, out, error) = try await CLIErrorTests.run(["seed", "--db", db, "--orders", "2000", "--play-share", "0.5"])
        #expect(status == 0 && out.contains("seeded 2000 orders"), "\(out) \(error)")
        let store = try await OrderStore.open(.sqlite(path: db), settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        let play = try await store.orders.page(OrderFilter(marketplace: .googlePlay), limit: 5_000).items.count
        await store.close()
        #expect((800...1_200).contains(play), "\(play) of 2000 at Google Play")
        let (refused, _, why) = try await CLIErrorTests.run(["seed", "--db", tempDB(), "--orders", "10", "--play-share", "2"])
        #expect(refused != 0 && why.contains("--play-share is between 0 and 1"), "\(why)")
    }

    @Test("The same seed and anchor give the same store; another seed does not")
    func deterministic() async throws {
        let a = try await seeded(tempDB(), orders: 3000, seed: 7)
        let b = try await seeded(tempDB(), orders: 3000, seed: 7)
        let c = try await seeded(tempDB(), orders: 3000, seed: 8)
        let pageA = try await a.orders.page(limit: 200).items, pageB = try await b.orders.page(limit: 200).items,
            pageC = try await c.orders.page(limit: 200).items
        #expect(pageA == pageB)
        #expect(pageA != pageC)
        #expect(try await a.audit.entries(limit: 1).first?.hash == b.audit.entries(limit: 1).first?.hash)
        for store in [a, b, c] { await store.close() }
    }

    @Test("PostgreSQL's bulk path (COPY) seeds the same store as SQLite's (multi-row inserts): same orders, same audit chain", .needsPostgres)
    func sameStoreOnBothBackends() async throws {
        let sqlite = try await seeded(tempDB(), orders: 3000, seed: 7)
        let location = try await Backend.postgres.freshLocation()
        defer { Backend.cleanUp(location) }
        let postgres: OrderStore
        do {
            postgres = try await OrderStore.open(location, settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
            try await SyntheticStore(orders: 3000, seed: 7, anchor: 1_793_491_200_000).write(into: postgres)
        } catch {
            await sqlite.close()  // SQLite's driver traps on a connection dropped unclosed
            throw error
        }
        #expect(try await sqlite.orders.page(limit: 3000).items == postgres.orders.page(limit: 3000).items)
        #expect(try await sqlite.reports.counts(now: 1_793_491_200_000) == postgres.reports.counts(now: 1_793_491_200_000))
        #expect(try await sqlite.audit.entries(limit: 1).first?.hash == postgres.audit.entries(limit: 1).first?.hash)
        if case .broken(let seq, let why) = try await postgres.audit.verify() { Issue.record("audit broken at \(seq): \(why)") }
        await sqlite.close()
        await postgres.close()
    }

    @Test("A seeded store is consistent: counters match rows, the audit chain verifies, every state occurs")
    func consistent() async throws {
        let store = try await seeded(tempDB(), orders: 20_000, seed: 3)
        let counts = try await store.reports.counts(now: 1_793_491_200_000)
        #expect(counts.total == 20_000)
        for state in OrderState.allCases {
            let n = try await store.orders.page(OrderFilter(state: state), limit: 100_000).items.count
            #expect(Int64(n) == counts.byState[state], "\(state)")
            #expect(n > 0, "no \(state) orders")
        }
        #expect(counts.byState[.delivered, default: 0] > 17_000)  // a live game delivers most orders
        #expect(counts.stuck > 0)
        if case .broken(let seq, let why) = try await store.audit.verify() { Issue.record("audit broken at \(seq): \(why)") }
        #expect(try await !store.orders.orphans().isEmpty)
        #expect(try await !store.subscriptions.disputes().isEmpty)
        #expect(try await !store.orders.lookup("玩家_小明_🐉").isEmpty)  // hostile account ids are present
        await store.close()
    }

    @Test("Seeding refuses a store that already has orders")
    func refusesNonEmpty() async throws {
        let path = tempDB()
        let store = try await seeded(path, orders: 100, seed: 1)
        await #expect(throws: StoreSetupError.storeNotEmpty(location: store.location.description)) { try await SyntheticStore(orders: 10).write(into: store) }
        await store.close()
    }

    @Test("Command line: operator add, order grant and audit, acting as the OS user")
    func commands() async throws {
        let path = tempDB()
        let store = try await seeded(path, orders: 3000, seed: 5)
        let stuck = try #require(try await store.reports.stuck(now: .now()).items.first?.order)
        await store.close()
        let me = OperatorIdentity.current
        try await run(["operator", "add", me, "--role", "admin", "--db", path])
        try await run(["order", "grant", stuck.orderId, "--reason", "ticket 42: paid, Apple timed out", "--db", path])
        let after = try await OrderStore.open(.sqlite(path: path), settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        #expect(try await after.orders.find(stuck.orderId)?.state == .delivered)
        let entry = try #require(try await after.audit.entries(limit: 1).first)
        #expect(entry.actor == me && entry.action == .grant && entry.reason == "ticket 42: paid, Apple timed out")
        await after.close()
        // A second grant is refused by the store, not repeated.
        await #expect(throws: StoreError.self) { try await run(["order", "grant", stuck.orderId, "--reason", "again", "--db", path]) }
    }

    private func run(_ arguments: [String]) async throws {
        try await IAPDesk.run(arguments)
    }
}
