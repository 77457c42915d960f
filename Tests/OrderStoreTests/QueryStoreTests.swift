import Foundation
import OrderDomain
import TestSupport
import Testing

@testable import OrderStore

@Suite("Queries, paging and storage")
struct QueryStoreTests {
    @Test("Paging by key visits every order exactly once, newest first, under every filter", arguments: Backend.all)
    func paging(backend: Backend) async throws {
        try await withStore(backend) { store in
            for i in 0..<53 {
                // Two orders share each timestamp, so the order id must break ties.
                try await store.orders.place(
                    orderId: String(format: "o%03d", i), accountId: i % 2 == 0 ? "even" : "odd",
                    productId: i % 3 == 0 ? "no_ads" : "coins_60", at: t0 + Millis(i / 2))
            }
            var seen: [String] = []
            var cursor: OrderCursor?
            repeat {
                let page = try await store.orders.page(after: cursor, limit: 10)
                seen += page.items.map(\.orderId)
                cursor = page.next
            } while cursor != nil
            #expect(seen.count == 53 && Set(seen).count == 53)
            #expect(seen.first == "o052" && seen.last == "o000")

            #expect(try await store.orders.page(OrderFilter(accountId: "even"), limit: 100).items.count == 27)
            #expect(try await store.orders.page(OrderFilter(productId: "no_ads"), limit: 100).items.count == 18)
            #expect(try await store.orders.page(OrderFilter(state: .pendingPayment), limit: 100).items.count == 53)
            let second = try await store.orders.page(
                OrderFilter(accountId: "odd"), after: try await store.orders.page(OrderFilter(accountId: "odd"), limit: 20).next, limit: 20)
            #expect(second.items.count == 6 && second.next == nil)
        }
    }

    /// Order ord-77 of player-9: a delivered subscription, transaction 2000000111 of 2000000100.
    static func deliveredSubscription(_ store: OrderStore) async throws {
        let submission = try await store.paidOrder("ord-77", account: "player-9", product: "vip_monthly")
        _ = try await store.apple.apply(
            orderId: "ord-77", submissionId: submission,
            report: validReport([tx("2000000111", product: "vip_monthly", original: "2000000100", at: t0 + 100, expires: t0 + .days(30))]),
            at: t0 + 3000)
    }

    @Test("Exact lookup finds an order by order id, account id, transaction id and original transaction id", arguments: Backend.all)
    func lookup(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await Self.deliveredSubscription(store)
            for id in ["ord-77", "player-9", "2000000111", "2000000100"] {
                #expect(try await store.orders.lookup(id).map(\.orderId) == ["ord-77"], "lookup \(id)")
            }
            #expect(try await store.orders.lookup("nothing").isEmpty)
        }
    }

    @Test("Search puts exact matches first, then ids that start with the word, case and punctuation exact", arguments: Backend.all)
    func prefixSearch(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await Self.deliveredSubscription(store)
            try await store.orders.place(orderId: "ord-7", accountId: "Player-1", productId: "coins_60", at: t0 + 1)
            try await store.orders.place(orderId: "ORD-78", accountId: "player-91", productId: "coins_60", at: t0 + 2)
            try await store.orders.place(orderId: "ord7x", accountId: "玩家_小明", productId: "coins_60", at: t0 + 3)
            try await store.orders.place(orderId: "ord-8", accountId: "p'%_\\", productId: "coins_60", at: t0 + 4)

            // The exact match leads, then the longer ids in byte order.
            #expect(try await store.orders.search("ord-7").map(\.orderId) == ["ord-7", "ord-77"])
            // A locale collation would put "ORD-78" and "Player-1" inside these ranges.
            #expect(try await store.orders.search("ord").map(\.orderId) == ["ord-7", "ord-77", "ord-8", "ord7x"])
            #expect(try await store.orders.search("player-9").map(\.orderId) == ["ord-77", "ORD-78"])
            #expect(try await store.orders.search("20000001").map(\.orderId) == ["ord-77"])
            #expect(try await store.orders.search("玩家").map(\.orderId) == ["ord7x"])
            // LIKE's wildcards mean nothing here.
            #expect(try await store.orders.search("p'%").map(\.orderId) == ["ord-8"])
            let wildcards = try await store.orders.search("%") + store.orders.search("_")
            #expect(wildcards.isEmpty)
            #expect(try await store.orders.search("ord", limit: 2).map(\.orderId) == ["ord-7", "ord-77"])
            #expect(try await store.orders.search("zzz").isEmpty)
        }
    }

    @Test("The stuck queue lists paid, undelivered orders past the threshold, oldest first", arguments: Backend.all)
    func stuckQueue(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await store.paidOrder("old", account: "a", at: t0)
            try await store.paidOrder("newer", account: "a", at: t0 + .minutes(10))
            try await store.paidOrder("fresh", account: "a", at: t0 + .minutes(29))
            try await store.orders.place(orderId: "unpaid", accountId: "a", productId: "coins_60", at: t0)
            let now = t0 + .minutes(30)
            let stuck = try await store.reports.stuck(now: now)
            #expect(stuck.items.map(\.order.orderId) == ["old", "newer"])
            #expect(stuck.items.first?.age == .minutes(30) - 1000)
            let counts = try await store.reports.counts(now: now)
            #expect(counts.stuck == 2)
            #expect(counts.oldestStuckAge == .minutes(30) - 1000)
            #expect(counts.byState[.receiptReceived] == 3 && counts.byState[.pendingPayment] == 1 && counts.total == 4)
            let firstPage = try await store.reports.stuck(now: now, limit: 1)
            #expect(try await store.reports.stuck(now: now, after: firstPage.next, limit: 1).items.map(\.order.orderId) == ["newer"])
        }
    }

    @Test(
        "Header counts that grow with the store stop at the cap and say so (\"1000+\"), so every frame's counts cost the same at any size",
        arguments: Backend.all)
    func cappedCounts(backend: Backend) async throws {
        try await withStore(backend) { store in
            let n = Int(StoreCounts.cap) + 5
            // Many stuck orders, written in one statement (placing each would be n commits).
            try await store.read { sql in
                try await sql.raw(
                    """
                    INSERT INTO orders (order_id, account_id, product_id, quantity, created_at, state, state_changed_at, version, updated_by, stuck_since, attempts)
                    SELECT 'o' || CAST(n AS TEXT), 'a', 'coins_60', 1, CAST(\(bind: t0) AS BIGINT), 'receipt_received', CAST(\(bind: t0) AS BIGINT), 1, 'test', CAST(\(bind: t0) AS BIGINT), 0
                    FROM (WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < \(bind: n)) SELECT n FROM k) AS numbers
                    """
                ).run()
            }
            let counts = try await store.reports.counts(now: t0 + .hours(1))
            #expect(counts.stuck == StoreCounts.cap)
            #expect(counts.oldestStuckAge == .hours(1))
            #expect(StoreCounts.text(counts.stuck) == "1000+" && StoreCounts.text(StoreCounts.cap - 1) == "999")
            #expect(try await store.reports.stuck(now: t0 + .hours(1), limit: 2000).items.count == n, "the queue itself is not capped")
        }
    }

    @Test("Hostile strings are stored and returned byte for byte", arguments: Backend.all)
    func hostileStrings(backend: Backend) async throws {
        try await withStore(backend) { store in
            let hostile = "acct\u{1B}[2J\u{1B}]0;pwned\u{07}\u{202E}evil\u{7F}玩家'; DROP TABLE orders;--"
            try await store.orders.place(orderId: "o1", accountId: hostile, productId: "coins_60", at: t0)
            #expect(try await store.orders.find("o1")?.accountId == hostile)
            #expect(try await store.orders.lookup(hostile).map(\.orderId) == ["o1"])
            #expect(try await store.reports.counts().total == 1)
        }
    }

    @Test("Unknown orders and products give clear errors", arguments: Backend.all)
    func notFound(backend: Backend) async throws {
        try await withStore(backend) { store in
            await #expect(throws: StoreError.unknownProduct("gems")) {
                try await store.orders.place(orderId: "o1", accountId: "a", productId: "gems")
            }
            await #expect(throws: StoreError.notFound(kind: .order, id: "nope")) {
                try await store.orders.submit(orderId: "nope", receiptData: "x")
            }
            await #expect(throws: StoreError.orderExists(orderId: "o2")) {
                try await store.orders.place(orderId: "o2", accountId: "a", productId: "coins_60")
                try await store.orders.place(orderId: "o2", accountId: "a", productId: "coins_60")
            }
        }
    }

    @Test("Reopening a store keeps its data and does not migrate twice", arguments: Backend.all)
    func reopen(backend: Backend) async throws {
        let location = try await backend.freshLocation()
        let first = try await OrderStore.open(location, settings: .test)
        try await TestCatalogue.install(in: first)
        try await first.orders.place(orderId: "kept", accountId: "a", productId: "coins_60", at: t0)
        await first.close()
        let second = try await OrderStore.open(location, settings: .test)
        #expect(try await second.orders.find("kept")?.state == .pendingPayment)
        let versions = try await second.db.sql.rows("SELECT version FROM schema_migrations").map { try $0.int("version") }
        #expect(versions == Array(1...Migrations.all(second.dialect).count))
        await second.close()
    }

    @Test("A store location hides a PostgreSQL password")
    func locationHidesPassword() {
        #expect(StoreLocation("postgres://ops:s3cret@db.internal:5432/iap").description == "postgres://ops:***@db.internal:5432/iap")
        #expect(StoreLocation("./x.sqlite") == .sqlite(path: "./x.sqlite"))
    }
}
