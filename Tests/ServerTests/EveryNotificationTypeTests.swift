import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import Presentation
import TestSupport
import Testing

/// Every notification type Apple sends, from the simulator's control to the store's end
/// state: the simulator posts to `serve` as Apple would, the worker applies each through
/// the rules, and nothing is rejected, left pending or dropped.
@Suite("serve: every notification type Apple sends")
struct EveryNotificationTypeTests {
    typealias Running = IntakeTests.Running

    /// Waits until the worker has decided every stored notification; returns them, oldest first.
    static func settled(_ count: Int, in serve: Running) async throws -> [NotificationRecord] {
        let deadline = Date().addingTimeInterval(30)
        while true {
            let all = try await serve.store.notifications.list(limit: 500)
            if (all.count >= count && !all.contains { $0.outcome == .pending }) || Date() > deadline { return all.sorted { $0.id < $1.id } }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test("From each control to the store: every type and subtype is verified, stored once and applied or recorded on purpose", arguments: Backend.all)
    func everyType(backend: Backend) async throws {
        try await IntakeTests.withServe(backend) { serve in
            let sim = serve.simulator
            await serve.wireNotifications()
            let coins = try await NotificationTests.delivered("e-1", product: "coins_980", kind: .consumable, account: "acct-e", appleId: "e@icloud", in: serve)
            let vip = try await NotificationTests.delivered(
                "e-2", product: "vip_monthly", kind: .autoRenewable, account: "acct-e", appleId: "e@icloud", in: serve)
            let otid = vip.originalTransactionId
            try await sim.renewAndNotify(originalTransactionId: otid)
            try await sim.failRenewalAndNotify(originalTransactionId: otid)
            try await sim.renewAndNotify(originalTransactionId: otid)
            try await sim.priceIncreaseAndNotify(originalTransactionId: otid, accepted: false)
            try await sim.priceIncreaseAndNotify(originalTransactionId: otid, accepted: true)
            try await sim.redeemOfferAndNotify(originalTransactionId: otid, offerIdentifier: "loyal_20")
            try await sim.setAutoRenewAndNotify(originalTransactionId: otid, false)
            try await sim.setAutoRenewAndNotify(originalTransactionId: otid, true)
            try await sim.changeProductAndNotify(originalTransactionId: otid, to: "vip_weekly")
            try await sim.changeProductAndNotify(originalTransactionId: otid, to: "vip_monthly")
            try await sim.changeProductAndNotify(originalTransactionId: otid, to: "vip_yearly")
            try await sim.failRenewalAndNotify(originalTransactionId: otid, graceDays: 16)
            try await sim.endGracePeriodAndNotify(originalTransactionId: otid)
            try await sim.expireAndNotify(originalTransactionId: otid)
            try await sim.requestRefundAndNotify(transactionId: coins.transactionId)
            try await sim.declineRefundAndNotify(transactionId: coins.transactionId)
            try await sim.refundAndNotify(transactionId: coins.transactionId, percentage: 50_000)
            try await sim.reverseRefundAndNotify(transactionId: coins.transactionId)
            // Bought at Apple, never submitted by the game: kept for support to see.
            let unsubmitted = try await sim.purchaseAndNotify(appleId: "e@icloud", productId: "coins_60")
            let noAds = try await sim.purchaseAndNotify(appleId: "parent@icloud", productId: "no_ads")
            let shared = try await sim.shareWithFamilyAndNotify(transactionId: noAds.transactionId, member: "child@icloud")
            try await sim.revokeAndNotify(transactionId: shared.transactionId)
            try await sim.rescindConsentAndNotify(appleId: "child@icloud")
            let sent = await sim.notifications.entries
            // serve never refused one; on a loaded machine the simulator may stop waiting for a
            // 200 after its 5 s (TIMED_OUT), and each is stored once all the same (below).
            #expect(
                sent.allSatisfy { $0.attempts.allSatisfy { ["SUCCESS", "TIMED_OUT"].contains($0.result) } && !$0.attempts.isEmpty },
                "serve answered every post 200: \(sent.map { $0.attempts.map(\.result) })")

            let stored = try await Self.settled(sent.count, in: serve)
            let table = stored.map { "\($0.facts.kind) → \($0.outcome.rawValue): \($0.said ?? $0.rejection?.words ?? "")" }.joined(separator: "\n")
            #expect(stored.count == sent.count, "each notification stored once")
            #expect(Set(stored.compactMap(\.facts.uuid)) == Set(sent.map(\.notification.uuid)))
            var outcomes: [String: [NotificationOutcome]] = [:]
            for record in stored { outcomes[record.facts.kind, default: []].append(record.outcome) }
            let expected: [String: [NotificationOutcome]] = [
                "DID_RENEW": [.applied], "DID_FAIL_TO_RENEW": [.applied], "DID_RENEW/BILLING_RECOVERY": [.applied],
                "PRICE_INCREASE/PENDING": [.recorded], "PRICE_INCREASE/ACCEPTED": [.recorded], "OFFER_REDEEMED": [.applied],
                "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED": [.applied], "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED": [.applied],
                "DID_CHANGE_RENEWAL_PREF/DOWNGRADE": [.recorded], "DID_CHANGE_RENEWAL_PREF": [.recorded], "DID_CHANGE_RENEWAL_PREF/UPGRADE": [.applied],
                "DID_FAIL_TO_RENEW/GRACE_PERIOD": [.applied], "GRACE_PERIOD_EXPIRED": [.applied], "EXPIRED/BILLING_RETRY": [.applied],
                "CONSUMPTION_REQUEST": [.recorded], "REFUND_DECLINED": [.recorded], "REFUND": [.applied], "REFUND_REVERSED": [.applied],
                // Bought at Apple with no order: the unsubmitted pack, the parent's and the child's no_ads;
                // and no game account is known for the child's Apple Account.
                "ONE_TIME_CHARGE": [.orphan, .orphan, .orphan], "REVOKE": [.orphan], "RESCIND_CONSENT": [.orphan],
            ]
            #expect(outcomes == expected, "\(table)")

            func detail(_ kind: String) -> String { stored.last { $0.facts.kind == kind }?.said ?? "" }
            #expect(detail("REFUND").contains("takes back 50 % (0 of 1 whole)"), "a partial refund says its share: \(detail("REFUND"))")
            #expect(detail("REFUND_REVERSED").contains("gives back 50 %"), "\(detail("REFUND_REVERSED"))")
            #expect(try await serve.store.orders.detail("e-1").order.state == .delivered, "a partial refund leaves the rest delivered")
            #expect(detail("ONE_TIME_CHARGE").contains("has not submitted"))
            #expect(stored.contains { $0.facts.kind == "ONE_TIME_CHARGE" && $0.facts.transaction?.transactionId == unsubmitted.transactionId })
            #expect(detail("REVOKE").contains("kept as revoked"))
            #expect(detail("DID_CHANGE_RENEWAL_PREF/DOWNGRADE").contains("vip_weekly"))
            let child = SimulatedPurchase.appTransactionId(appleId: "child@icloud", sandbox: false)
            #expect(detail("RESCIND_CONSENT").contains(child), "keyed by the child's app transaction")
            #expect(try await serve.store.subscriptions.detail(otid).subscription?.status == .expired)
        }
    }
}
