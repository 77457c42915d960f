import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import Presentation
import TestSupport
import Testing

/// What real notifications do that the happy path does not: arrive before any order holds
/// their purchase, arrive about a share of a pack, name an Apple Account rather than a
/// purchase, and follow a family organizer's renewals. Each in the order it happens in life,
/// posted by the simulator to `serve` as Apple would, on both backends.
@Suite("serve: notifications before orders, partial refunds, consent, family")
struct NotificationsBeforeOrdersTests {
    typealias Running = IntakeTests.Running
    static let day: TimeInterval = 86_400
    static let lin = Operator(name: "lin", role: .support)

    static func ms(_ date: Date?) -> Millis? { date.map { Millis(($0.timeIntervalSince1970 * 1000).rounded()) } }

    /// Posts each and waits until the worker has decided it.
    static func postAll(_ notifications: [SimulatedNotification], in serve: Running) async throws -> [NotificationRecord] {
        var records: [NotificationRecord] = []
        for n in notifications { records.append(try await NotificationTests.applied(try await NotificationTests.post(n, in: serve), in: serve)) }
        return records
    }

    @Test(
        "A subscriber Apple tells about before any order: its facts are kept, owner unknown; the operator's attach adds the owner without newer facts, Apple's later statuses still apply on replay, and the game hears nothing to give for a period already over",
        arguments: Backend.all)
    func subscriptionBeforeItsOrder(backend: Backend) async throws {
        try await IntakeTests.withServe(backend) { serve in
            let sim = serve.simulator
            let start = Date().addingTimeInterval(-70 * Self.day)
            // The game placed its order; the receipt never reached it (the network dropped).
            _ = try await serve.store.orders.place(
                orderId: "late-1", accountId: "acct-late", productId: "vip_monthly", at: Self.ms(start.addingTimeInterval(-60)) ?? 0)
            // Apple's side, each notification made when it happened.
            let first = await sim.ledger.purchase(appleId: "late@icloud", productId: "vip_monthly", at: start)
            let otid = first.originalTransactionId
            let subscribed = try await sim.notification("SUBSCRIBED", subtype: "INITIAL_BUY", about: first, signedAt: start)
            let renewal = try await sim.ledger.renew(originalTransactionId: otid)
            let renewed = try await sim.notification("DID_RENEW", about: renewal, signedAt: renewal.purchaseDate)
            await sim.ledger.setAutoRenew(originalTransactionId: otid, false)
            let disabled = try await sim.notification(
                "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED", about: renewal, signedAt: renewal.purchaseDate.addingTimeInterval(5 * Self.day))
            let periodEnd = try #require(renewal.expiresDate)
            #expect(periodEnd < Date(), "the subscription ended before support heard of it")
            let expired = try await sim.notification("EXPIRED", subtype: "VOLUNTARY", about: renewal, signedAt: periodEnd.addingTimeInterval(60))

            // The first two reach serve; the other two wait in Apple's retries (serve was down).
            let early = try await Self.postAll([subscribed, renewed], in: serve)
            #expect(early.map(\.outcome) == [.orphan, .orphan], "\(early.map { $0.said ?? "" })")
            #expect(early[1].said?.contains("facts are kept") == true, "\(early[1].said ?? "")")
            var subscription = try #require(
                try await serve.store.subscriptions.detail(otid).subscription, "support sees the subscription before any order holds it")
            #expect(subscription.ownerAccount == nil && subscription.autoRenew == true)
            #expect(subscription.expiresAt == Self.ms(periodEnd) && subscription.factsAsOf == Self.ms(renewal.purchaseDate))
            let shown = try #require(SubscriptionPresentation.sections(try await serve.store.subscriptions.detail(otid), storeIsProduction: true))
            let owner = try #require(shown.first?.lines.first { $0.label == "owner" })
            #expect(owner.text.contains("unknown: no order holds it yet"), "subscription show says whose it is not: \(owner.text)")

            // Support finds the player's purchase and attaches it to the order that paid for it.
            let order = try #require(try await serve.store.orders.find("late-1"))
            let attached = try await serve.store.orders.attach(
                transactionId: first.transactionId, to: "late-1", expectedVersion: order.version, by: Self.lin, reason: "ticket 9: paid in spring")
            #expect(attached.state == .delivered)
            subscription = try #require(try await serve.store.subscriptions.detail(otid).subscription)
            #expect(subscription.ownerAccount == "acct-late")
            #expect((subscription.factsAsOf ?? .max) <= Self.ms(renewal.purchaseDate) ?? 0, "the attach adds an owner, not facts newer than Apple's")

            let told = try await serve.store.outbox.events(orderId: "late-1").map(\.event.payload)
            #expect(told.count == 1)
            #expect(told.allSatisfy { $0.contains(#""op":"none""#) && $0.contains("nothing to give acct-late") }, "\(told)")

            // Apple's retries arrive after the attach: signed before it, and still Apple's newest word.
            let late = try await Self.postAll([disabled, expired], in: serve)
            #expect(late.map(\.outcome) == [.applied, .applied], "\(late.map { $0.said ?? "" })")
            subscription = try #require(try await serve.store.subscriptions.detail(otid).subscription)
            #expect(subscription.status == .expired && subscription.autoRenew == false && subscription.factsSource == .notification)

            // Replayed, each is weighed by when Apple signed it: only Apple's own later word supersedes.
            let records = early + late
            for record in records { try await serve.store.notifications.replay(id: record.id, by: Self.lin, reason: "attached: apply Apple's word") }
            var replayed: [NotificationRecord] = []
            for record in records {
                let deadline = Date().addingTimeInterval(30)
                var now = try await serve.store.notifications.record(id: record.id)
                while now.outcome == .pending, Date() < deadline {
                    try await Task.sleep(for: .milliseconds(30))
                    now = try await serve.store.notifications.record(id: record.id)
                }
                replayed.append(now)
            }
            #expect(replayed[1].outcome == .applied && replayed[1].said?.contains("acct-late, the owner") == true, "\(replayed[1].said ?? "")")
            #expect(replayed[2].outcome == .superseded, "AUTO_RENEW_DISABLED is older than EXPIRED: \(replayed[2].said ?? "")")
            #expect(replayed[3].outcome == .applied, "EXPIRED: \(replayed[3].said ?? "")")
            subscription = try #require(try await serve.store.subscriptions.detail(otid).subscription)
            #expect(subscription.status == .expired && subscription.autoRenew == false)
            let after = try await serve.store.outbox.events(orderId: "late-1").map(\.event.payload)
            #expect(!after.contains { $0.contains(#""op":"give""#) }, "never 'give … until' a date already past: \(after)")
        }
    }

    @Test(
        "A partial refund of a pack takes back its share of the quantity once (Apple's retry changes nothing), the order stays delivered, re-verifying does not refund the rest, and the reversal gives the share back",
        arguments: Backend.all)
    func partialRefundOfAPack(backend: Backend) async throws {
        try await IntakeTests.withServe(backend, serverAPI: true) { serve in
            let sim = serve.simulator
            #expect(
                try await serve.call(.POST, "/v1/orders", json: #"{"order_id":"pack-1","account_id":"acct-p","product_id":"coins_60","quantity":10}"#).status
                    == 201)
            let pack = await sim.ledger.purchase(appleId: "p@icloud", productId: "coins_60", appAccountToken: "pack-1", quantity: 10)
            let receipt = try await sim.ledger.receipt(appleId: "p@icloud")
            #expect(
                try await serve.call(.POST, "/v1/orders/pack-1/receipts", json: #"{"receipt_data":"\#(receipt)","transaction_id":"\#(pack.transactionId)"}"#)
                    .status == 202)
            #expect(try await IntakeTests.waitFor("delivered", order: "pack-1", in: serve)["state"] as? String == "delivered")

            try await sim.ledger.refund(transactionId: pack.transactionId, percentage: 30_000)
            let refunded = try #require(await sim.ledger.purchase(transactionId: pack.transactionId))
            let refund = try await sim.notification("REFUND", about: refunded)
            let applied = try await NotificationTests.applied(try await NotificationTests.post(refund, in: serve), in: serve)
            #expect(applied.outcome == .applied, "\(applied.said ?? "")")
            #expect(applied.said?.contains("takes back 30 % (3 of 10 whole)") == true, "\(applied.said ?? "")")
            let again = try await NotificationTests.post(refund, in: serve)
            #expect(again.status == 200, "Apple's retry is answered")

            var events = try await serve.store.outbox.events(orderId: "pack-1").map(\.event)
            let partial = try #require(events.first { $0.type == .partiallyRefunded })
            #expect(events.filter { $0.type == .partiallyRefunded }.count == 1, "taken back once")
            #expect(partial.payload.contains(#""op":"take""#) && partial.payload.contains(#""quantity":3"#) && partial.payload.contains(#""share":0.3"#))
            #expect(try await serve.store.orders.find("pack-1")?.state == .delivered, "the other 70 % stays the player's")

            // Apple's answer now carries the partial revocation: the rules must not read it as a full refund.
            let outcome = try await serve.store.apple.reverify(orderId: "pack-1", using: serve.verifier, by: Self.lin)
            #expect(outcome.order.state == .delivered, "re-verified with the partial revocation in Apple's answer, still delivered")

            try await sim.ledger.reverseRefund(transactionId: pack.transactionId)
            let reversed = try await NotificationTests.applied(
                try await NotificationTests.post(try await sim.notification("REFUND_REVERSED", about: pack), in: serve), in: serve)
            #expect(reversed.outcome == .applied && reversed.said?.contains("gives back 30 % (3 of 10 whole)") == true, "\(reversed.said ?? "")")
            events = try await serve.store.outbox.events(orderId: "pack-1").map(\.event)
            let back = try #require(events.last)
            #expect(back.type == .refundReversed && back.payload.contains(#""op":"give""#) && back.payload.contains(#""quantity":3"#))
        }
    }

    @Test(
        "RESCIND_CONSENT names an Apple Account: every game account that Apple Account bought with is told to end access; one nobody bought with is kept for an operator",
        arguments: Backend.all)
    func consentRescinded(backend: Backend) async throws {
        try await IntakeTests.withServe(backend) { serve in
            let sim = serve.simulator
            await serve.wireNotifications()
            // A child plays two game accounts on one Apple Account; Apple tells of each purchase (ONE_TIME_CHARGE).
            let gems = try await NotificationTests.delivered(
                "kid-1", product: "coins_60", kind: .consumable, account: "kid-a", appleId: "kid@icloud", in: serve)
            let more = try await NotificationTests.delivered(
                "kid-2", product: "coins_300", kind: .consumable, account: "kid-b", appleId: "kid@icloud", in: serve)
            for purchase in [gems, more] {
                _ = try await NotificationTests.applied(
                    try await NotificationTests.post(try await sim.notification("ONE_TIME_CHARGE", about: purchase), in: serve), in: serve)
            }
            try await sim.rescindConsentAndNotify(appleId: "kid@icloud")
            try await sim.rescindConsentAndNotify(appleId: "stranger@icloud")
            let stored = try await EveryNotificationTypeTests.settled(4, in: serve).filter { $0.facts.type == "RESCIND_CONSENT" }
            #expect(stored.map(\.outcome) == [.applied, .orphan], "\(stored.map { $0.said ?? "" })")
            #expect(stored.first?.said?.contains("kid-a, kid-b") == true)
            let pulled = try await serve.store.outbox.events(after: 0, limit: 100).filter { $0.type == .consentRescinded }
            #expect(pulled.map(\.accountId).sorted() == ["kid-a", "kid-b"])
            #expect(pulled.allSatisfy { $0.orderId == nil && $0.payload.contains(#""op":"end_access""#) })
            #expect(stored.last?.said?.contains("tell the game by hand") == true)
        }
    }

    @Test(
        "Family Sharing: a member's subscription renews with the organizer's, Apple tells of both, and the member's is kept with its facts until an order holds it"
    )
    func familyFollowsOrganizer() async throws {
        try await IntakeTests.withServe(.sqlite) { serve in
            let sim = serve.simulator
            await serve.wireNotifications()
            let organizer = try await NotificationTests.delivered(
                "fam-1", product: "vip_monthly", kind: .autoRenewable, account: "parent", appleId: "parent@icloud", in: serve)
            let member = try await sim.shareWithFamilyAndNotify(transactionId: organizer.transactionId, member: "child@icloud")
            let renewal = try await sim.renewAndNotify(originalTransactionId: organizer.originalTransactionId)
            let stored = try await EveryNotificationTypeTests.settled(3, in: serve)
            let renewals = stored.filter { $0.facts.type == "DID_RENEW" }
            #expect(renewals.count == 2, "Apple tells of the organizer's renewal and the member's")
            let memberRenewal = try #require(renewals.first { $0.facts.transaction?.originalTransactionId == member.originalTransactionId })
            #expect(memberRenewal.facts.transaction?.ownershipType == "FAMILY_SHARED")
            #expect(memberRenewal.facts.transaction?.expiresDate == Self.ms(renewal.expiresDate), "the member's period ends with the organizer's")
            #expect(memberRenewal.outcome == .orphan)
            let shared = try #require(try await serve.store.subscriptions.detail(member.originalTransactionId).subscription)
            #expect(shared.ownerAccount == nil && shared.status == .active && shared.expiresAt == Self.ms(renewal.expiresDate))
            #expect(try await serve.store.subscriptions.detail(organizer.originalTransactionId).subscription?.expiresAt == Self.ms(renewal.expiresDate))
        }
    }
}
