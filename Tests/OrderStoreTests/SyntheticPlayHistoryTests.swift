import Foundation
import OrderDomain
import SyntheticData
import TestSupport
import Testing

@testable import OrderStore

/// The synthetic history the budgets are measured on holds both stores: with a Google Play
/// share, its Play orders are whole (Google's order ids and renewals, purchase tokens and
/// what Google reports of them, obfuscated account ids, subscriptions kept as Google's), so
/// every lookup and page the desk makes of a Play order is measured on real rows.
@Suite("Store: a synthetic history with both stores")
struct SyntheticPlayHistoryTests {
    @Test(
        "Half the orders paid at Google: found by GPA id, renewal id, purchase token and obfuscated account id; their pages read; Google's subscriptions are Google's",
        arguments: Backend.all)
    func halfPlay(backend: Backend) async throws {
        try await withStore(backend) { store in
            var plan = SyntheticStore(orders: 3_000, seed: 7, anchor: t0 + .hours(24 * 200))
            plan.playShare = 0.5
            try await plan.write(into: store)
            let play = try await store.orders.page(OrderFilter(marketplace: .googlePlay), limit: 10_000).items
            let apple = try await store.orders.page(OrderFilter(marketplace: .appStore), limit: 10_000).items
            #expect(play.count + apple.count == 3_000)
            #expect((1_300...1_700).contains(play.count), "about half: \(play.count)")

            let delivered = try #require(play.first { $0.state == .delivered && $0.productId == "coins_60" })
            let gpa = try #require(delivered.transactionId)
            #expect(gpa.hasPrefix("GPA.") && gpa.count == 24, "\(gpa)")
            #expect(try await store.orders.lookup(gpa).map(\.orderId) == [delivered.orderId])
            let token = try #require(try await store.googlePlay.tokens(ofOrder: delivered.orderId).first)
            #expect(try await store.orders.lookup(token).map(\.orderId) == [delivered.orderId], "a purchase token leads to its order")
            let facts = try #require(try await store.googlePlay.purchase(token: token))
            #expect(facts.facts.acknowledged && facts.facts.packageName == "com.iapdesk.demo" && facts.acknowledgeBy == nil)
            #expect(try await store.orders.lookup("acct-\(delivered.accountId)").contains { $0.orderId == delivered.orderId })
            let detail = try await store.orders.detail(delivered.orderId)
            #expect(detail.submissions.first?.kind == .googlePlay && detail.grants.count == 1)

            // A subscription renewed at Google: its periods share the first order id, and the
            // chain is Google's.
            let renewal = try #require(play.first { $0.transactionId?.contains("..") == true && $0.state == .delivered })
            let first = try #require(renewal.originalTransactionId)
            #expect(renewal.transactionId?.hasPrefix(first + "..") == true)
            #expect(try await store.orders.lookup(first).contains { $0.orderId == renewal.orderId })
            let subscription = try #require(try await store.subscriptions.detail(first).subscription)
            #expect(subscription.marketplace == .googlePlay)
            // Paid and waiting at Google: owed an acknowledgement, with its deadline.
            #expect(try await !store.googlePlay.owedAcknowledgements().isEmpty)
        }
    }
}
