import Foundation
import OrderDomain
import SyntheticData
import TestSupport
import Testing

@testable import OrderStore

/// A loaded history (the demo's synthetic orders) reads as lived: each delivered order has
/// the event the game was sent at its grant, confirmed then, and nothing is sent again.
@Suite("Confirmed history of a loaded store")
struct ConfirmedHistoryTests {
    @Test(
        "Every delivered order gets one delivered event, dated and confirmed at its grant, saying what a live one says (a subscription's owner and period end); none is owed to the game; a second pass writes nothing",
        arguments: Backend.all)
    func historyIsWhole(backend: Backend) async throws {
        let location = try await backend.freshLocation()
        defer { Backend.cleanUp(location) }
        let store = try await OrderStore.open(location, settings: .test)
        do {
            try await SyntheticStore(orders: 2_500, seed: 13, anchor: t0 + .hours(24 * 200)).write(into: store)
            let delivered = try await store.orders.page(OrderFilter(state: .delivered), limit: 10_000).items
            #expect(delivered.count > 1_200, "several batches and several inserts a batch: \(delivered.count)")

            // Batches of 1,200 write inserts of 500, 500 and 200 rows.
            let written = try await store.outbox.recordConfirmedHistory(batch: 1_200)
            #expect(written == delivered.count)
            #expect(try await store.outbox.recordConfirmedHistory(batch: 1_200) == 0)
            #expect(try await store.outbox.unconfirmedCount() == 0, "nothing owed to the game")
            let sends = try await store.db.sql.row("SELECT COUNT(*) AS n FROM jobs WHERE kind = 'send_events'")?.int64("n")
            #expect(sends == 0, "no send is scheduled for the past")

            let events = try await store.outbox.events(after: 0, limit: 10_000)
            #expect(Set(events.compactMap(\.orderId)) == Set(delivered.map(\.orderId)) && events.count == delivered.count)
            let byOrder = Dictionary(uniqueKeysWithValues: events.compactMap { event in event.orderId.map { ($0, event) } })
            var subscriptionsChecked = 0
            for order in delivered {
                let event = try #require(byOrder[order.orderId])
                let body = try JSONDecoder().decode(GameEventBody.self, from: Data(event.payload.utf8))
                let detail = try await store.orders.detail(order.orderId)
                let grantedAt = try #require(detail.grants.first?.grantedAt)
                #expect(event.type == .delivered && event.confirmedVia == "history")
                #expect(event.createdAt == grantedAt && event.confirmedAt == grantedAt && body.createdAt == grantedAt)
                #expect(body.orderId == order.orderId && body.transactionId == order.transactionId && body.effect.op != .take)
                if detail.product?.type == .autoRenewable, let otid = order.originalTransactionId,
                    let subscription = try await store.subscriptions.detail(otid).subscription
                {
                    // R8: the effect names the subscription's owner and its period end.
                    #expect(body.effect.accountId == (subscription.ownerAccount ?? order.accountId) && body.effect.until == subscription.expiresAt)
                    subscriptionsChecked += 1
                } else {
                    #expect(body.effect.accountId == order.accountId && body.effect.quantity == order.quantity)
                }
            }
            #expect(subscriptionsChecked > 50, "subscriptions among them: \(subscriptionsChecked)")
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }
}
