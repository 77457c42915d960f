import OrderDomain
import TestSupport
import Testing

@testable import OrderStore

/// R8 through the store, set up in the order things happen in life: Apple renews first,
/// then an account places the order that submits the renewal.
@Suite("Subscription ownership (R8)")
struct OwnershipStoreTests {
    private let otid = "1000000692878476"

    /// Period `n` of the subscription: the first bought at t0, each renewal bought by Apple
    /// 20 hours before the previous period ends, 30 days each.
    private func period(_ n: Int, product: String = "vip_monthly") -> AppleTransaction {
        let start = t0 + .days(Int64(30 * n))
        return tx(
            n == 0 ? otid : "\(otid.dropLast())\(n)", product: product, original: otid,
            at: n == 0 ? t0 + 500 : start - .hours(20), expires: start + .days(30), line: "line-\(n)")
    }

    /// `account` places an order at `at` and submits a receipt holding `chain`; Apple's
    /// answer says auto-renew is `renewing` now.
    private func submit(
        _ store: OrderStore, _ id: String, account: String, product: String = "vip_monthly", at: Millis,
        chain: [AppleTransaction], renewing: Bool = true
    ) async throws -> VerificationOutcome {
        try await store.orders.place(orderId: id, accountId: account, productId: product, at: at)
        let submission = try await store.orders.submit(orderId: id, receiptData: "r-\(id)", at: at + 1000)
        let report = validReport([], latest: chain, renewals: [AppleRenewalInfo(originalTransactionId: otid, productId: product, autoRenewEnabled: renewing)])
        return try await store.apple.apply(orderId: id, submissionId: submission, report: report, at: at + 2000)
    }

    private func aSubscribes(_ store: OrderStore) async throws {
        let first = try await submit(store, "a-1", account: "A", at: t0, chain: [period(0)])
        #expect(first.ownership == .firstOwner("A"))
        #expect(first.order.state == .delivered)
    }

    @Test("Seed 003 case 1: Apple renews A's subscription; then B, on the same phone, submits the renewal → A keeps it, B disputed", arguments: Backend.all)
    func ownerStillRenewing(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await aSubscribes(store)
            // The renewal was bought 20 h before the period's end; B places its order a day later.
            let renewal = try await submit(store, "b-1", account: "B", at: t0 + .days(31), chain: [period(0), period(1)])
            #expect(renewal.checks.allSatisfy { $0.passed }, "a renewal is older than B's order and must still reach R8")
            #expect(renewal.ownership == .ownerKeeps(owner: "A"))
            #expect(renewal.order.state == .disputed)
            #expect(try await store.orders.detail("b-1").grants.isEmpty)
            #expect(try await store.orders.detail("b-1").subscriptionOwner == "A", "the dispute names the owner beside the submitter")

            let detail = try await store.subscriptions.detail(otid)
            #expect(detail.subscription?.ownerAccount == "A")
            #expect(detail.subscription?.expiresAt == t0 + .days(60))  // the renewal extended A's period
            #expect(detail.subscription?.status == .active)
            #expect(detail.subscription?.factsSource == .verifyReceipt)
            #expect(detail.subscription?.factsAsOf == t0 + .days(31) + 2000)
            #expect(detail.chain.map(\.submittedBy) == ["A", "B"])
            let review = try await store.subscriptions.disputes().map(\.event)
            #expect(review.map(\.verdict) == [.ownerKeeps])
            #expect(review.first?.said == "owner A is still auto-renewing, so the renewal is theirs")
            #expect(try await store.subscriptions.disputes(in: .appStore).map(\.marketplace) == [.appStore], "an App Store subscription's dispute")
            #expect(try await store.subscriptions.disputes(in: .googlePlay).isEmpty)
            // A disputed order is paid and undelivered: it shows in the stuck queue.
            #expect(try await store.reports.stuck(now: t0 + .days(32)).items.map(\.order.orderId) == ["b-1"])
        }
    }

    @Test(
        "Seed 003 case 2: A turns auto-renew off; B buys the quarterly on the same Apple ID → B owns; the quarterly renews, A submits it → B keeps it",
        arguments: Backend.all)
    func ownerStoppedRenewing(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await aSubscribes(store)
            try await store.subscriptions.recordRenewalStatus(originalTransactionId: otid, autoRenew: false, asOf: t0 + .days(10), at: t0 + .days(10))

            // B buys as A's month ends; Apple now says auto-renew is on: B's new purchase, not A's wish.
            let bBuys = try await submit(
                store, "b-1", account: "B", product: "vip_quarterly", at: t0 + .days(30) - .hours(21),
                chain: [period(0), period(1, product: "vip_quarterly")])
            #expect(bBuys.ownership == .transfer(from: "A", to: "B", because: .autoRenewOff))
            #expect(bBuys.order.state == .delivered)
            #expect(try await store.subscriptions.detail(otid).subscription?.ownerAccount == "B")

            let aSubmits = try await submit(
                store, "a-2", account: "A", product: "vip_quarterly", at: t0 + .days(61),
                chain: [period(0), period(1, product: "vip_quarterly"), period(2, product: "vip_quarterly")])
            #expect(aSubmits.ownership == .ownerKeeps(owner: "B"))
            #expect(aSubmits.order.state == .disputed)
            let history = try await store.subscriptions.detail(otid).ownership
            #expect(history.map(\.verdict) == [.firstOwner, .transfer, .ownerKeeps])
            #expect(history.map(\.toAccount) == ["A", "B", "B"])
        }
    }

    @Test("R8 on facts true at the renewal: an owner whose subscription expired months ago loses it, whatever the stale flag says", arguments: Backend.all)
    func ownerExpiredLongAgo(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await aSubscribes(store)
            // A's month ran out at t0+30d and nothing renewed it; B subscribes three months later.
            var comeback = period(4)
            comeback.purchaseDate = t0 + .days(120)
            let bBuys = try await submit(store, "b-1", account: "B", at: t0 + .days(120) - 5000, chain: [period(0), comeback])
            #expect(bBuys.ownership == .transfer(from: "A", to: "B", because: .expired(at: t0 + .days(30))))
            #expect(bBuys.order.state == .delivered)
            #expect(
                try await store.subscriptions.disputes().first?.event.said
                    == "owner A let the subscription expire on \((t0 + .days(30)).iso8601); ownership moves to B")
        }
    }

    @Test("R8: a stored 'auto-renew on' older than the renewal is checked with Apple's answer first", arguments: Backend.all)
    func staleFactsRefreshed(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await aSubscribes(store)
            let renewal = try await submit(store, "b-1", account: "B", at: t0 + .days(31), chain: [period(0), period(1)], renewing: false)
            #expect(renewal.ownership == .transfer(from: "A", to: "B", because: .autoRenewOff))
            let subscription = try #require(try await store.subscriptions.detail(otid).subscription)
            #expect(subscription.autoRenew == false)
            #expect(subscription.factsAsOf == t0 + .days(31) + 2000)
        }
    }

    @Test("R8: a refund of the owner's period before the renewal means the owner is not renewing", arguments: Backend.all)
    func refundedOwner(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await aSubscribes(store)
            try await store.apple.recordRefund(transactionId: otid, cancelledAt: t0 + .days(5), at: t0 + .days(5))
            #expect(try await store.subscriptions.detail(otid).subscription?.status == .refunded)
            var refunded = period(0)
            refunded.cancellationDate = t0 + .days(5)
            let renewal = try await submit(store, "b-1", account: "B", at: t0 + .days(31), chain: [refunded, period(1)])
            #expect(renewal.ownership == .transfer(from: "A", to: "B", because: .refunded))
        }
    }

    @Test("A notification older than the stored facts changes nothing", arguments: Backend.all)
    func olderFactsIgnored(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await aSubscribes(store)
            try await store.subscriptions.recordRenewalStatus(originalTransactionId: otid, autoRenew: false, asOf: t0 + .days(3), at: t0 + .days(3))
            try await store.subscriptions.recordRenewalStatus(originalTransactionId: otid, autoRenew: true, asOf: t0 + .days(2), at: t0 + .days(4))
            let subscription = try #require(try await store.subscriptions.detail(otid).subscription)
            #expect(subscription.autoRenew == false)
            #expect(subscription.factsAsOf == t0 + .days(3))
            #expect(subscription.factsSource == .notification)
        }
    }

    private func disputedB(_ store: OrderStore) async throws -> Order {
        try await aSubscribes(store)
        return try await submit(store, "b-1", account: "B", at: t0 + .days(31), chain: [period(0), period(1)]).order
    }

    @Test("An operator settles a dispute either way, with a reason, audited; settling closes the review item", arguments: Backend.all)
    func resolve(backend: Backend) async throws {
        try await withStore(backend) { store in
            let disputed = try await disputedB(store)
            await #expect(throws: StoreError.reasonRequired(action: .resolveDisputes)) {
                try await store.subscriptions.resolve(orderId: "b-1", expectedVersion: disputed.version, favor: .submitter, by: alice, reason: " ")
            }
            let settled = try await store.subscriptions.resolve(
                orderId: "b-1", expectedVersion: disputed.version, favor: .submitter,
                by: alice, reason: "ticket 4411: B is the family member who pays")
            #expect(settled.state == .delivered)
            #expect(try await store.subscriptions.detail(otid).subscription?.ownerAccount == "B")
            #expect(try await store.subscriptions.disputes().isEmpty)
            let actions = try await store.audit.entries().map(\.action)
            #expect(actions.prefix(2) == [.grant, .ownership(.transfer)])
        }
    }

    @Test("A disputed renewal is never granted around R8: a plain grant is refused and points to settling", arguments: Backend.all)
    func grantRefusedOnDispute(backend: Backend) async throws {
        try await withStore(backend) { store in
            let disputed = try await disputedB(store)
            await #expect(throws: StoreError.mustSettleDispute(orderId: "b-1")) {
                try await store.orders.grant(orderId: "b-1", expectedVersion: disputed.version, by: root, reason: "player says they paid")
            }
            #expect(try await store.orders.detail("b-1").grants.isEmpty)
            #expect(try await store.subscriptions.disputes().count == 1)
            #expect(!OrderPermissions.allowed(on: disputed, role: .admin).contains(.grant))
            #expect(OrderPermissions.allowed(on: disputed, role: .support).contains(.settle))
        }
    }

    @Test(
        "Re-verifying a dispute: Apple's answer shows A's period refunded before the renewal (a missed notification) → the rule settles it for B",
        arguments: Backend.all)
    func reverifySettlesDispute(backend: Backend) async throws {
        try await withStore(backend) { store in
            let disputed = try await disputedB(store)
            var refunded = period(0)
            refunded.cancellationDate = t0 + .days(20)
            let report = validReport(
                [], latest: [refunded, period(1)],
                renewals: [AppleRenewalInfo(originalTransactionId: otid, productId: "vip_monthly", autoRenewEnabled: true)])
            let again = try await store.apple.apply(orderId: "b-1", submissionId: nil, report: report, at: t0 + .days(32))
            #expect(again.ownership == .transfer(from: "A", to: "B", because: .refunded))
            #expect(again.order.state == .delivered)
            #expect(again.order.version > disputed.version)
            let detail = try await store.orders.detail("b-1")
            #expect(detail.grants.map(\.kind) == [.automatic])
            #expect(try await store.subscriptions.detail(otid).subscription?.ownerAccount == "B")
            #expect(try await store.subscriptions.disputes().isEmpty, "the rule settled it: nothing left to review")
        }
    }

    @Test("Re-verifying a dispute while A still renews leaves it for an operator, with one review item, not two", arguments: Backend.all)
    func reverifyKeepsDispute(backend: Backend) async throws {
        try await withStore(backend) { store in
            _ = try await disputedB(store)
            let report = validReport(
                [], latest: [period(0), period(1)],
                renewals: [AppleRenewalInfo(originalTransactionId: otid, productId: "vip_monthly", autoRenewEnabled: true)])
            let again = try await store.apple.apply(orderId: "b-1", submissionId: nil, report: report, at: t0 + .days(32))
            #expect(again.ownership == .ownerKeeps(owner: "A"))
            #expect(again.order.state == .disputed)
            #expect(try await store.subscriptions.disputes().count == 1)
            #expect(try await store.subscriptions.detail(otid).subscription?.ownerAccount == "A")
        }
    }

    @Test("Transferring a subscription with a disputed renewal settles it for the new owner", arguments: Backend.all)
    func transferSettles(backend: Backend) async throws {
        try await withStore(backend) { store in
            _ = try await disputedB(store)
            try await store.subscriptions.transfer(originalTransactionId: otid, to: "B", by: alice, reason: "ticket 88: B pays the card")
            let order = try await store.orders.detail("b-1")
            #expect(order.order.state == .delivered)
            #expect(order.grants.count == 1)
            #expect(try await store.subscriptions.disputes().isEmpty)
            let subscription = try #require(try await store.subscriptions.detail(otid).subscription)
            #expect(subscription.ownerAccount == "B")
            #expect(subscription.expiresAt == t0 + .days(60))
            #expect(try await store.accounts.detail("B").subscriptions.first?.expiresAt == t0 + .days(60))
        }
    }

    @Test("Transferring to a third account rejects the disputed submitter's renewal and closes the review", arguments: Backend.all)
    func transferElsewhere(backend: Backend) async throws {
        try await withStore(backend) { store in
            _ = try await disputedB(store)
            try await store.subscriptions.transfer(originalTransactionId: otid, to: "C", by: alice, reason: "account merge")
            #expect(try await store.orders.detail("b-1").order.state == .rejected)
            #expect(try await store.subscriptions.disputes().isEmpty)
            // The game hears it: taken from A, given to C until the period's end.
            let moved = try await store.outbox.unconfirmed().filter { $0.type == .ownershipTransferred }
            #expect(moved.map(\.accountId) == ["A", "C"])
            #expect(moved.first?.payload.contains(#""op":"take""#) == true && moved.last?.payload.contains(#""op":"give""#) == true)
            #expect(moved.last?.summary.hasPrefix("give C 1 × 月度 VIP until") == true, "\(moved.map(\.summary))")
        }
    }

    @Test("Upholding the rule's verdict rejects the submitter's order", arguments: Backend.all)
    func uphold(backend: Backend) async throws {
        try await withStore(backend) { store in
            let disputed = try await disputedB(store)
            let upheld = try await store.subscriptions.resolve(orderId: "b-1", expectedVersion: disputed.version, favor: .owner, by: alice, reason: "A pays")
            #expect(upheld.state == .rejected)
            #expect(try await store.subscriptions.detail(otid).subscription?.ownerAccount == "A")
            #expect(try await store.subscriptions.disputes().isEmpty)
        }
    }

    @Test("Transfer by an operator needs a reason and a role that may act", arguments: Backend.all)
    func operatorTransfer(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await aSubscribes(store)
            await #expect(throws: StoreError.forbidden(action: .transferSubscription, role: .viewer)) {
                try await store.subscriptions.transfer(originalTransactionId: otid, to: "C", by: viewer, reason: "x")
            }
            try await store.subscriptions.transfer(originalTransactionId: otid, to: "C", by: alice, reason: "account merge, ticket 17")
            let detail = try await store.subscriptions.detail(otid)
            #expect(detail.subscription?.ownerAccount == "C")
            #expect(detail.ownership.last?.decidedBy == .operator("alice"))
            #expect(try await store.accounts.detail("C").subscriptions.map(\.originalTransactionId) == [otid])
        }
    }
}
