import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import TestSupport
import Testing

/// A subscription's facts are Apple's, as of the latest moment Apple signed, whatever order
/// its notifications arrive in: the life of a subscription as Apple tells it (bought and
/// delivered, renewed twice, auto-renew turned off and on again, an earlier period refunded)
/// posted to `serve` shuffled, each twice, fifty times over, on both backends.
@Suite("serve: a subscription's facts whatever order Apple's notifications arrive in")
struct SubscriptionFactsOrderTests {
    /// What support reads of one subscription and its order once everything is applied.
    struct EndState: Equatable, CustomStringConvertible {
        var status: SubscriptionStatus
        var autoRenew: Bool
        var expiresIsLatestPeriod: Bool
        var owner: String?
        var orderState: OrderState?
        var grantRevoked: Bool
        var refundedPeriodShown: Bool
        var liveRefunded: Bool

        var description: String {
            "\(status.rawValue), auto-renew \(autoRenew), ends with latest period \(expiresIsLatestPeriod), owner \(owner ?? "-"), "
                + "order \(orderState?.rawValue ?? "-"), grant revoked \(grantRevoked), refunded period shown \(refundedPeriodShown), "
                + "live period refunded \(liveRefunded)"
        }
    }

    @Test(
        "Purchase, two renewals, auto-renew off then on, a refund of the first period: posted in 50 random orders, twice each, the subscription ends active with auto-renew on until its latest period, and only the refunded period's order and grant are taken back",
        arguments: Backend.all)
    func shuffled(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, serverAPI: true) { serve in
            let sim = serve.simulator
            var random = SplitMix(seed: 42)
            var lives: [(order: String, latest: SimulatedPurchase, refunded: String)] = []
            var ids: [Int] = []
            for k in 0..<50 {
                let (order, account, appleId) = ("sh-\(k)", "acct-sh-\(k)", "shuffle-\(k)@icloud")
                let first = await sim.notifications.entries.count
                #expect(
                    try await serve.call(.POST, "/v1/orders", json: #"{"order_id":"\#(order)","account_id":"\#(account)","product_id":"vip_monthly"}"#).status
                        == 201)
                let bought = try await sim.purchaseAndNotify(
                    appleId: appleId, productId: "vip_monthly", at: Date().addingTimeInterval(-60), appAccountToken: order)
                let signed = try await sim.signedTransaction(bought)
                #expect(try await serve.call(.POST, "/v1/orders/\(order)/receipts", json: #"{"signed_transaction":"\#(signed)"}"#).status == 202)
                #expect(try await IntakeTests.waitFor("delivered", order: order, in: serve)["state"] as? String == "delivered")

                // What happens at Apple after the delivery, a second apart as Apple signs it.
                let base = Date().addingTimeInterval(10)
                _ = try await sim.renewAndNotify(originalTransactionId: bought.originalTransactionId, at: base.addingTimeInterval(1))
                let latest = try await sim.renewAndNotify(originalTransactionId: bought.originalTransactionId, at: base.addingTimeInterval(2))
                try await sim.setAutoRenewAndNotify(originalTransactionId: bought.originalTransactionId, false, at: base.addingTimeInterval(3))
                try await sim.setAutoRenewAndNotify(originalTransactionId: bought.originalTransactionId, true, at: base.addingTimeInterval(4))
                try await sim.refundAndNotify(transactionId: bought.transactionId, at: base.addingTimeInterval(5))
                lives.append((order, try #require(await sim.ledger.purchase(transactionId: latest.transactionId)), bought.transactionId))

                // Posted shuffled, each twice: Apple retries, and a history sweep recovers what it already sent.
                let sent = await sim.notifications.entries[first...].map(\.notification)
                #expect(sent.map(\.type) == ["SUBSCRIBED", "DID_RENEW", "DID_RENEW", "DID_CHANGE_RENEWAL_STATUS", "DID_CHANGE_RENEWAL_STATUS", "REFUND"])
                for notification in (sent + sent).shuffled(using: &random) {
                    let posted = try await NotificationTests.post(notification, in: serve)
                    #expect(posted.status == 200, "\(posted.body)")
                    if let id = posted.body["id"] as? Int { ids.append(id) }
                }
            }
            for id in Set(ids) { _ = try await NotificationTests.applied((200, ["id": id]), in: serve) }

            var ends: [EndState] = []
            for life in lives {
                let subscription = try #require(try await serve.store.subscriptions.detail(life.latest.originalTransactionId).subscription)
                let order = try await serve.store.orders.detail(life.order)
                let chain = try await serve.store.subscriptions.detail(life.latest.originalTransactionId).chain
                ends.append(
                    EndState(
                        status: subscription.status, autoRenew: subscription.autoRenew,
                        expiresIsLatestPeriod: subscription.expiresAt == life.latest.expiresDate.map { Millis(($0.timeIntervalSince1970 * 1000).rounded()) },
                        owner: subscription.ownerAccount, orderState: order.order.state, grantRevoked: order.grants.first?.revokedAt != nil,
                        refundedPeriodShown: chain.first { $0.transaction.transactionId == life.refunded }?.transaction.cancellationDate != nil,
                        liveRefunded: chain.first { $0.transaction.transactionId == life.latest.transactionId }?.transaction.cancellationDate != nil))
            }
            let expected = EndState(
                status: .active, autoRenew: true, expiresIsLatestPeriod: true, owner: nil, orderState: .refunded, grantRevoked: true,
                refundedPeriodShown: true, liveRefunded: false)
            for (index, end) in ends.enumerated() {
                var want = expected
                want.owner = "acct-sh-\(index)"
                #expect(end == want, "subscription \(index): \(end)")
            }
        }
    }
}
