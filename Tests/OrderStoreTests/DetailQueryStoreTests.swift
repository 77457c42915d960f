import Foundation
import OrderDomain
import TestSupport
import Testing

@testable import OrderStore

/// On PostgreSQL a detail screen is one statement whose parts come back as JSON;
/// on SQLite each part is its own statement. Both must show the same rows in the same order,
/// whatever the strings hold.
@Suite("Detail screens read in one go")
struct DetailQueryStoreTests {
    /// Strings a player or Apple could send: quotes, backslashes, a newline, escapes, emoji.
    static let hostile = "quote \" back\\slash\nnew line \u{1b}[31m ünïcode 🎮 'single' $1 NULL"

    @Test(
        "An order's screen holds every part in its order: receipts as sent, the latest answers oldest first, notifications about its transactions only, the game's event with each try",
        arguments: Backend.all)
    func orderParts(backend: Backend) async throws {
        try await withStore(backend) { store in
            let first = try await store.paidOrder("o1", account: "a1")
            _ = try await store.orders.submit(orderId: "o1", receiptData: Self.hostile, at: t0 + 2000)
            for minute: Int64 in 1...3 { _ = try await store.apple.apply(orderId: "o1", submissionId: first, report: outage, at: t0 + .minutes(minute)) }
            let paid = try await store.apple.apply(
                orderId: "o1", submissionId: first, report: validReport([tx("t-1", at: t0 + 500)]), at: t0 + .minutes(4))
            #expect(paid.order.state == .delivered)
            // Another player's order, which must not leak into o1's screen.
            let other = try await store.paidOrder("o2", account: "a2")
            _ = try await store.apple.apply(orderId: "o2", submissionId: other, report: validReport([tx("t-2", at: t0 + 600)]), at: t0 + .minutes(5))

            let event = try #require(try await store.outbox.events(orderId: "o1").first?.event)
            try await store.outbox.recordAttempt(
                event, GameEventAttempt(at: t0 + .minutes(6), via: .push, httpStatus: 503, answer: Self.hostile, latencyMs: 7))
            try await store.outbox.recordAttempt(event, GameEventAttempt(at: t0 + .minutes(7), via: .push, httpStatus: 200, answer: "ok", latencyMs: 3))
            func refund(_ uuid: String, _ tid: String, signed: Millis) -> IncomingNotification {
                IncomingNotification(
                    endpoint: .production, via: .receiver, raw: "eyJ…", rejection: nil,
                    facts: NotificationFacts(
                        uuid: uuid, type: "REFUND_DECLINED", signedDate: signed, environment: "Production", transaction: tx(tid, at: t0 + 500)))
            }
            _ = try await store.notifications.receive(
                all: [
                    refund("u-late", "t-1", signed: t0 + .minutes(9)), refund("u-other", "t-2", signed: t0 + .minutes(8)),
                    refund("u-early", "t-1", signed: t0 + .minutes(8)),
                ],
                at: t0 + .minutes(10))

            let detail = try await store.orders.detail("o1", attemptLimit: 2)
            #expect(detail.order.orderId == "o1" && detail.product?.productId == "coins_60")
            #expect(detail.submissions.map(\.receiptData) == ["receipt-of-o1", Self.hostile], "the hostile receipt comes back byte for byte")
            #expect(detail.attempts.map(\.at) == [t0 + .minutes(3), t0 + .minutes(4)], "the two latest, oldest first")
            #expect(detail.grants.map(\.transactionId) == ["t-1"])
            #expect(detail.transactions.map(\.transaction.transactionId) == ["t-1"])
            #expect(detail.notifications.map(\.facts.uuid) == ["u-early", "u-late"], "by signed date, only about o1's transaction")
            #expect(!detail.audit.isEmpty && detail.audit.allSatisfy { $0.target == .order("o1") })
            #expect(detail.audit.map(\.seq) == detail.audit.map(\.seq).sorted())
            #expect(detail.events.map(\.event.eventId) == [event.eventId])
            #expect(detail.events.first?.attempts.map(\.httpStatus) == [503, 200])
            #expect(detail.events.first?.attempts.first?.answer == Self.hostile)
        }
    }

    @Test("An unknown order is not found; an order without receipts shows empty parts; an account and a subscription read their parts", arguments: Backend.all)
    func emptyAndOtherScreens(backend: Backend) async throws {
        try await withStore(backend) { store in
            await #expect(throws: StoreError.self) { try await store.orders.detail("nobody's order") }
            try await store.orders.place(orderId: "bare", accountId: "a3", productId: "coins_60", at: t0)
            let bare = try await store.orders.detail("bare")
            #expect(bare.submissions.isEmpty && bare.attempts.isEmpty && bare.grants.isEmpty && bare.events.isEmpty && bare.notifications.isEmpty)

            for index in 0..<3 { try await store.orders.place(orderId: "acc-\(index)", accountId: "a3", productId: "coins_60", at: t0 + Millis(index) * 1000) }
            let account = try await store.accounts.detail("a3", limit: 2)
            #expect(account.orders.map(\.orderId) == ["acc-2", "acc-1"], "newest first, up to the limit")
            let missing = try await store.subscriptions.detail("no-such-otid")
            #expect(missing.subscription == nil && missing.chain.isEmpty && missing.orders.isEmpty)
        }
    }
}
