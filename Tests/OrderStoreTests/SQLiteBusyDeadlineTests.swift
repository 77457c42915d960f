import Foundation
import OrderDomain
import TestSupport
import Testing

@testable import OrderStore

/// SQLite's one wait, for the write lock another process holds, follows the call's deadline:
/// the store's `deadline_seconds`, or sooner the calling request's budget (serve's 503 with
/// Retry-After then comes in time), never a fixed ten seconds.
@Suite("SQLite waits follow the deadline")
struct SQLiteBusyDeadlineTests {
    /// What serve answers 503 with Retry-After: the store unreachable, SQLite's lock named.
    private static func isOutage(_ error: (any Error)?) -> Bool {
        guard case StoreError.unavailable(let why)? = error as? StoreError else { return false }
        return why.contains("locked")
    }

    @Test(
        "With another writer holding the lock, a write under a 200 ms budget fails in about that long and one without waits the store's deadline (4 s), both as an outage serve answers 503; once the lock is free, writes go through"
    )
    func busyWaitFollowsDeadline() async throws {
        let location = try await Backend.sqlite.freshLocation()
        defer { Backend.cleanUp(location) }
        var settings = StoreSettings.test
        settings.databaseDeadline = .seconds(4)
        let store = try await OrderStore.open(location, settings: settings)
        try await TestCatalogue.install(in: store)
        let other = try await OrderStore.open(location, settings: .test)
        let holding = Task { try await other.write(as: .system) { _ in try await Task.sleep(for: .seconds(8)) } }
        do {
            // The other store's transaction has the lock once it can read what it wrote.
            try await Task.sleep(for: .milliseconds(300))

            let clock = ContinuousClock()
            var started = clock.now
            let budgeted = await #expect(throws: (any Error).self) {
                try await CallBudget.within(.milliseconds(200)) { try await store.orders.place(orderId: "o1", accountId: "a1", productId: "coins_60") }
            }
            let budgetedTook = clock.now - started
            #expect(budgetedTook < .seconds(2), "the request's 200 ms budget, not the store's 4 s: \(budgetedTook)")
            #expect(Self.isOutage(budgeted), "an outage: \(String(describing: budgeted))")

            started = clock.now
            let unbudgeted = await #expect(throws: (any Error).self) {
                try await store.orders.place(orderId: "o2", accountId: "a1", productId: "coins_60")
            }
            let unbudgetedTook = clock.now - started
            #expect(unbudgetedTook > .milliseconds(3_500) && unbudgetedTook < .seconds(7), "the store's 4 s deadline: \(unbudgetedTook)")
            #expect(Self.isOutage(unbudgeted), "an outage: \(String(describing: unbudgeted))")
            #expect(try await CallBudget.within(.zero) { try? await store.orders.find("o1") } == nil, "a spent budget tries nothing")

            try await holding.value
            try await store.orders.place(orderId: "o3", accountId: "a1", productId: "coins_60")
            #expect(try await store.orders.find("o3") != nil, "the lock free, writes go through")
        } catch {
            holding.cancel()
            await store.close()
            await other.close()
            throw error
        }
        await store.close()
        await other.close()
    }
}
