import OrderDomain
import SyntheticData
import TestSupport
import Testing

@testable import OrderStore

/// Every filter combination the console and the CLI offer narrows by all it
/// names (an index serves each), or is refused with a message; none drops a field.
@Suite("Order filters combine")
struct OrderFilterStoreTests {
    /// Every combination of the fields, over values that occur in the seeded store.
    private static func combinations(state: OrderState, account: String, product: String, environment: AppleEnvironment) -> [OrderFilter] {
        var filters: [OrderFilter] = []
        for mask in 1..<16 {
            filters.append(
                OrderFilter(
                    state: mask & 1 != 0 ? state : nil, accountId: mask & 2 != 0 ? account : nil,
                    productId: mask & 4 != 0 ? product : nil, environment: mask & 8 != 0 ? environment : nil))
        }
        return filters
    }

    private static func matches(_ order: Order, _ filter: OrderFilter) -> Bool {
        (filter.state.map { $0 == order.state } ?? true) && (filter.accountId.map { $0 == order.accountId } ?? true)
            && (filter.productId.map { $0 == order.productId } ?? true) && (filter.environment.map { $0 == order.environment } ?? true)
    }

    @Test(
        "Each combination returns exactly the orders matching every field, newest first, across pages; three without an account are refused",
        arguments: Backend.all)
    func combinationsNarrowByAll(backend: Backend) async throws {
        let location = try await backend.freshLocation()
        defer { Backend.cleanUp(location) }
        let store = try await OrderStore.open(location, settings: .test)
        do {
            try await SyntheticStore(orders: 3000, seed: 11, anchor: t0 + .hours(24 * 200)).write(into: store)
            let all = try await store.orders.page(limit: 10_000).items
            // An account with several orders, some of them rejected, and a sandbox purchase somewhere.
            let byAccount = Dictionary(grouping: all, by: \.accountId)
            let account = try #require(byAccount.max { $0.value.count < $1.value.count }?.key)
            let sample = try #require(byAccount[account]?.first)
            for filter in Self.combinations(state: sample.state, account: account, product: sample.productId, environment: sample.environment ?? .production)
                + Self.combinations(state: .rejected, account: account, product: "coins_60", environment: .sandbox)
            {
                if filter.accountId == nil, filter.state != nil, filter.productId != nil, filter.environment != nil {
                    await #expect(
                        throws: StoreError.unservedFilter("state, product and env together are not served by an index: add acct:, or drop one of them")
                    ) {
                        try await store.orders.page(filter)
                    }
                    continue
                }
                let expected = all.filter { Self.matches($0, filter) }.map(\.orderId)
                var got: [String] = []
                var cursor: OrderCursor?
                repeat {
                    let page = try await store.orders.page(filter, after: cursor, limit: 40)
                    got += page.items.map(\.orderId)
                    cursor = page.next
                } while cursor != nil
                #expect(got == expected, "\(filter): \(got.count) orders, expected \(expected.count)")
            }
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }
}

@Suite("Id searches keep to their kind")
struct IdKindStoreTests {
    @Test("tid:, otid:, order: and acct: look only at their kind of id; a subscription's list is exact, not a prefix", arguments: Backend.all)
    func kinds(backend: Backend) async throws {
        try await withStore(backend) { store in
            for (order, account, tid, original) in [("o1", "77-acct", "7001", "7001"), ("o2", "a2", "7702", "5000")] {
                let submission = try await store.paidOrder(order, account: account)
                _ = try await store.apple.apply(
                    orderId: order, submissionId: submission,
                    report: validReport([tx(tid, original: original, at: t0 + 100)]), at: t0 + 3000)
            }
            try await store.paidOrder("77-order", account: "a3")
            func ids(_ text: String, _ kind: IdKind, prefix: Bool = true) async throws -> Set<String> {
                Set(try await store.orders.search(text, kind: kind, prefix: prefix).map(\.orderId))
            }
            #expect(try await ids("77", .any) == ["o1", "o2", "77-order"])
            #expect(try await ids("77", .transaction) == ["o2"])
            #expect(try await ids("77", .account) == ["o1"])
            #expect(try await ids("77", .order) == ["77-order"])
            #expect(try await ids("7001", .transaction) == ["o1"])
            #expect(try await ids("7001", .originalTransaction) == ["o1"])
            #expect(try await ids("5000", .originalTransaction, prefix: false) == ["o2"])
            #expect(try await ids("500", .originalTransaction, prefix: false) == [])
            #expect(try await ids("500", .originalTransaction) == ["o2"])
            #expect(try await ids("500", .transaction) == [])
        }
    }
}
