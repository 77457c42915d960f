import AppStore
import AppStoreSimulator
import Foundation
import IAPDeskCLI
import OrderDomain
import OrderStore
import Server

/// The tickets support is asked about most, seeded into the demo as they happen in life, each
/// with the player's words as a note on the account:
/// - a purchase paid at Apple whose receipt never reached the game: found only by the order id
///   on Apple's emailed invoice (`MK…`), which leads to the order that waits for it;
/// - a subscriber on a plan billed monthly with a 12-month commitment, on their third
///   payment, who cancelled during the commitment;
/// - a live subscription whose first period Apple refunded: that period's order is taken back,
///   the subscription goes on.
enum DemoAppleTickets {
    /// What the help screen says of each ticket: the player's words and where to start.
    typealias Ticket = (name: String, text: String)

    static let desk = Operator(name: "ticket-desk", role: .support)

    static func seed(_ store: OrderStore, simulator: AppStoreSimulator, verifier: AppleVerifier, now: Date = Date()) async throws -> [Ticket] {
        let decoder = NotificationDecoder(trust: simulator.trustRoots, bundleIds: [simulator.bundleId])
        /// Apple's notifications since `mark`, stored and applied as `serve` would.
        func told(since mark: Int) async throws {
            for entry in await simulator.notifications.entries[mark...] {
                let incoming = await decoder.decode(
                    signedPayload: entry.notification.signedPayload, endpoint: entry.notification.isSandbox ? .sandbox : .production, via: .receiver)
                _ = try await store.notifications.receive(incoming)
                try await store.notifications.apply(key: incoming.facts.applyKey)
            }
        }
        func at(_ days: Double) -> Date { now.addingTimeInterval(days * 86_400) }
        func millis(_ date: Date) -> Millis { Millis((date.timeIntervalSince1970 * 1000).rounded()) }
        /// The game submits the purchase a minute after it and Apple's answer is applied then:
        /// the facts it learns are as of that day, and Apple's later notifications newer.
        func delivered(_ order: String, purchase: SimulatedPurchase) async throws {
            let signed = try await simulator.signedTransaction(purchase, signedAt: purchase.purchaseDate)
            let submitted = try await store.orders.submit(
                orderId: order, evidence: .signedTransaction(signed), claimedTransactionId: purchase.transactionId, at: millis(purchase.purchaseDate) + 30_000)
            let report = await verifier.verify(.signedTransaction(signed), claimedTransactionId: purchase.transactionId, app: simulator.bundleId)
            _ = try await store.apple.apply(orderId: order, submissionId: submitted, report: report, at: millis(purchase.purchaseDate) + 60_000)
        }

        /// Two monthly renewals, each told when its period starts.
        func renewTwice(_ purchase: SimulatedPurchase) async throws {
            var last = purchase
            for _ in 1...2 {
                last = try await simulator.renewAndNotify(originalTransactionId: purchase.originalTransactionId, at: last.expiresDate ?? now)
            }
        }

        // Paid at Apple; the game's receipt never came.
        try await store.orders.place(orderId: "demo_mk_1", accountId: "demo_ticket_mk", productId: "coins_980", at: millis(at(-0.2)))
        let unseen = await simulator.ledger.purchase(appleId: "ticket-mk@icloud.example", productId: "coins_980", at: at(-0.19), appAccountToken: "demo_mk_1")
        let invoice = "paid 98 CNY for 980 coins and got nothing; Apple's receipt email says order \(unseen.appleOrderId)"
        _ = try await store.notes.add(to: .account("demo_ticket_mk"), text: "Ticket: \(invoice)", by: desk)

        // A plan billed monthly with a 12-month commitment, cancelled on its third payment.
        try await store.orders.place(orderId: "demo_commit_1", accountId: "demo_commit", productId: "vip_monthly", at: millis(at(-65)))
        let committed = try await simulator.purchaseAndNotify(
            appleId: "ticket-commit@icloud.example", productId: "vip_monthly", at: at(-65), appAccountToken: "demo_commit_1", commitment: 12)
        try await delivered("demo_commit_1", purchase: committed)
        var mark = await simulator.notifications.entries.count
        try await renewTwice(committed)
        try await simulator.setAutoRenewAndNotify(originalTransactionId: committed.originalTransactionId, false, at: at(-1))
        try await told(since: mark)
        _ = try await store.notes.add(
            to: .account("demo_commit"), text: "Ticket: cancelled VIP yesterday, why was I charged this month? (order demo_commit_1)", by: desk)

        // A live subscription whose first period Apple refunded.
        try await store.orders.place(orderId: "demo_rp_1", accountId: "demo_refund_period", productId: "vip_monthly", at: millis(at(-65)))
        let first = try await simulator.purchaseAndNotify(
            appleId: "ticket-refund@icloud.example", productId: "vip_monthly", at: at(-65), appAccountToken: "demo_rp_1")
        try await delivered("demo_rp_1", purchase: first)
        mark = await simulator.notifications.entries.count
        try await renewTwice(first)
        try await simulator.refundAndNotify(transactionId: first.transactionId, at: at(-0.5))
        try await told(since: mark)
        _ = try await store.notes.add(
            to: .account("demo_refund_period"), text: "Ticket: Apple refunded my first month; is my VIP still on? (order demo_rp_1)", by: desk)

        // A player who bought coins on an iPhone, then moved to Android (its Google Play
        // purchase is seeded with Android's tickets): one account, both stores.
        try await store.orders.place(orderId: "demo_moved_1", accountId: "demo_moved", productId: "coins_980", at: millis(at(-40)))
        let onIPhone = await simulator.ledger.purchase(
            appleId: "ticket-moved@icloud.example", productId: "coins_980", at: at(-40), appAccountToken: "demo_moved_1")
        try await delivered("demo_moved_1", purchase: onIPhone)

        return [
            ("ticket 1", "demo_ticket_mk: \(invoice) (/\(unseen.appleOrderId) or :order \(unseen.appleOrderId))"),
            ("ticket 2", "demo_commit: cancelled VIP during a 12-month commitment (:account demo_commit, o on its order)"),
            ("ticket 3", "demo_refund_period: Apple refunded the first month of a live VIP (:order demo_rp_1)"),
        ]
    }
}
