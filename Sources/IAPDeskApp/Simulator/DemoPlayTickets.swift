import Foundation
import GooglePlay
import GooglePlaySimulator
import IAPDeskCLI
import OrderDomain
import OrderStore
import SimulatorFaults
import SyntheticData

/// Android players' tickets, seeded into the demo beside Apple's as they happen in life:
/// bought through the Google Play simulator, submitted by the game as `serve` stores them,
/// verified with Google by the worker's own client, each with the player's words as a note:
/// - paid, delivered and acknowledged (the everyday case, both kinds of product);
/// - paid, and nothing arrived: Google answered 503 when the game submitted it (`r` re-verifies);
/// - delivered but never acknowledged, Google's three-day refund a few hours away (`:acks`, `a`);
/// - a purchase token replayed on a second account (R7);
/// - a subscription whose plan change a second account submitted (R8, across linked tokens);
/// - a purchase Google refunded (voided, R9);
/// - a license tester's test purchase (flagged like Apple's sandbox, R2).
enum DemoPlayTickets {
    static let desk = Operator(name: "ticket-desk", role: .support)

    /// The push subscription's audience the demo's simulator and `serve` agree on.
    static let pushAudience = "https://iapdesk.demo/google/notifications"

    static func seed(_ store: OrderStore, simulator: GooglePlaySimulator, client: PlayClient, now: Date = Date()) async throws
        -> [DemoAppleTickets.Ticket]
    {
        let package = simulator.packageName
        let verifier = PlayVerifier(client: client)
        func millis(_ date: Date) -> Millis { Millis((date.timeIntervalSince1970 * 1000).rounded()) }
        func ago(hours: Double) -> Date { now.addingTimeInterval(-hours * 3600) }
        /// The game places the order, the player pays at Google, the game submits the token
        /// a minute later and the worker's answer from Google is applied: as `serve` does.
        @discardableResult
        func bought(
            _ order: String, account: String, product: String, at date: Date, quantity: Int = 1, test: Bool = false, consume: Bool = false
        ) async throws -> PlayPurchase {
            let purchase = try await simulator.ledger.buy(
                packageName: package, productId: product, account: account, quantity: quantity, test: test, at: date)
            try await submitted(order, account: account, product: product, token: purchase.token, at: date, quantity: quantity, consume: consume)
            return purchase
        }
        func submitted(
            _ order: String, account: String, product: String, token: String, at date: Date, placed: Date? = nil, quantity: Int = 1,
            consume: Bool = false
        ) async throws {
            try await store.orders.place(
                orderId: order, accountId: account, productId: product, quantity: quantity, at: placed.map(millis) ?? millis(date) - 5_000)
            let evidence = PurchaseEvidence.googlePlay(PlaySubmission(packageName: package, productId: product, purchaseToken: token, consume: consume))
            let submission = try await store.orders.submit(orderId: order, evidence: evidence, at: millis(date) + 30_000)
            let report = await verifier.verify(evidence, claimedTransactionId: nil)
            _ = try await store.apple.apply(orderId: order, submissionId: submission, report: report, at: millis(date) + 60_000)
        }
        /// What the worker does after delivering: tells Google, as it would.
        func acknowledged(_ token: String, at date: Date) async throws {
            _ = try await store.googlePlay.acknowledge(purchaseToken: token, at: millis(date)) { await client.acknowledgeRefusal($0) }
        }
        func note(_ account: String, _ text: String) async throws { _ = try await store.notes.add(to: .account(account), text: "Ticket: \(text)", by: desk) }

        // Everyday purchases: delivered, acknowledged (a consumable consumed).
        let everyday: [(String, String, Int)] = [("coins_60", "demo_gp_1", 1), ("no_ads", "demo_gp_2", 1), ("coins_300", "demo_gp_3", 2)]
        for (index, (product, account, quantity)) in everyday.enumerated() {
            let at = ago(hours: Double(30 - index * 6))
            let purchase = try await bought(
                "gp_\(String(format: "%06d", index + 1))", account: account, product: product, at: at, quantity: quantity,
                consume: product.hasPrefix("coins"))
            try await acknowledged(purchase.token, at: at.addingTimeInterval(120))
        }

        // Paid, nothing arrived: Google was down when the game submitted it.
        await simulator.faults.set(FaultProfile(faults: [.init(.http(503))]))
        let stuck = try await bought("gp_stuck_1", account: "demo_gp_stuck", product: "coins_980", at: ago(hours: 5))
        await simulator.faults.set(FaultProfile())
        try await note("demo_gp_stuck", "paid 98 for 980 coins on Android and got nothing; Google's receipt says \(stuck.orderId ?? "?")")

        // Paid, and the game never heard of it: the app closed before it sent the token. The
        // order waits for its payment; only Google's receipt email names the purchase.
        try await store.orders.place(orderId: "gp_lost_1", accountId: "demo_gp_lost", productId: "coins_300", quantity: 1, at: millis(ago(hours: 3)))
        let lost = try await simulator.ledger.buy(
            packageName: package, productId: "coins_300", account: "demo_gp_lost", quantity: 1, test: false, at: ago(hours: 3))
        try await note(
            "demo_gp_lost", "paid for 300 coins on Android, the game closed and nothing came (order gp_lost_1); Google's receipt says \(lost.orderId ?? "?")")

        // Delivered, never acknowledged: Google refunds it in about ten hours.
        let owed = try await bought("gp_ack_1", account: "demo_gp_ack", product: "coins_300", at: ago(hours: 62))
        try await note("demo_gp_ack", "got my coins two days ago; Google now says my purchase will be refunded? (\(owed.orderId ?? "?"))")

        // The same purchase token submitted again, for another account's order placed before it was paid.
        let original = try await bought("gp_replay_a", account: "demo_gp_replay_a", product: "coins_60", at: ago(hours: 20))
        try await acknowledged(original.token, at: ago(hours: 20))
        try await submitted(
            "gp_replay_b", account: "demo_gp_replay_b", product: "coins_60", token: original.token, at: ago(hours: 2), placed: ago(hours: 21))
        try await note("demo_gp_replay_b", "bought 60 coins, the game says the purchase belongs to someone else (order gp_replay_b)")

        // A subscription: A subscribes, changes plan; B's game account submits the new token.
        // The yearly plan is sold on Android only: the demo's catalogue gets it here.
        try await store.catalogue.upsert(
            Product(productId: "vip_yearly", type: .autoRenewable, displayName: "年度 VIP · Yearly VIP", priceMinor: 25_800, currency: "CNY"))
        let first = try await bought("gp_sub_a", account: "demo_gp_sub_a", product: "vip_monthly", at: ago(hours: 24 * 20))
        try await acknowledged(first.token, at: ago(hours: 24 * 20))
        let upgraded = try await simulator.ledger.changePlan(first.token, to: "vip_yearly", at: ago(hours: 24 * 3))
        let told = await verifier.report(purchaseToken: upgraded.token, package: package, subscription: true)
        try await store.googlePlay.refresh(purchaseToken: upgraded.token, report: told, at: millis(ago(hours: 24 * 3)))
        try await submitted("gp_sub_b", account: "demo_gp_sub_b", product: "vip_yearly", token: upgraded.token, at: ago(hours: 24 * 3 - 1))
        try await acknowledged(upgraded.token, at: ago(hours: 24 * 3 - 1))
        try await note("demo_gp_sub_b", "paid for VIP yearly on my tablet, VIP is not on for this account (order gp_sub_b)")

        // Google refunded it: the voided purchase takes the coins back and the game is told.
        let voided = try await bought("gp_void_1", account: "demo_gp_void", product: "coins_300", at: ago(hours: 48))
        try await acknowledged(voided.token, at: ago(hours: 48))
        let record = try await simulator.ledger.void(voided.token, reason: 1, at: ago(hours: 3))
        try await store.googlePlay.receiveVoided([PlayVoidedPurchase(demo: record)], at: millis(ago(hours: 3)))
        if let otid = try await store.orders.find("gp_void_1")?.originalTransactionId { _ = try await store.notifications.apply(key: otid) }
        try await note("demo_gp_void", "my 300 coins disappeared (order gp_void_1)")

        // A license tester's purchase: delivered, flagged, no money moved.
        let test = try await bought("gp_test_1", account: "demo_gp_tester", product: "coins_60", at: ago(hours: 8), test: true)
        try await acknowledged(test.token, at: ago(hours: 8))

        // The player who bought on an iPhone buys again on Android (one account, both stores).
        let moved = try await bought("gp_moved_1", account: "demo_moved", product: "coins_300", at: ago(hours: 26), consume: true)
        try await acknowledged(moved.token, at: ago(hours: 26))
        try await note("demo_moved", "I moved from my iPhone to an Android phone: are the coins I bought on the iPhone still mine?")

        return [
            ("android: nothing arrived", "/demo_gp_stuck finds gp_stuck_1 (Google never answered for it); r asks Google again"),
            (
                "android: the game never sent it",
                "/ with the GPA id in demo_gp_lost's note: Google names a purchase no order submitted; A attaches it to gp_lost_1"
            ),
            ("android: refund warning", ":acks lists gp_ack_1 with hours left; a acknowledges it"),
            ("android: replayed token", "order gp_replay_b: its token is gp_replay_a's (R7)"),
            ("android: subscription", "order gp_sub_b: a plan change demo_gp_sub_a owns (R8)"),
            ("android: voided", "order gp_void_1: Google refunded it; the coins were taken back"),
            ("android: moved from iPhone", ":account demo_moved lists its iPhone and Android orders together (STORE column)"),
        ]
    }
}

extension PlayVoidedPurchase {
    /// The simulator's record as Google's Voided Purchases API reports it.
    init(demo record: VoidedRecord) {
        self.init(
            purchaseToken: record.token, orderId: record.orderId, purchaseTime: Millis((record.purchaseTime.timeIntervalSince1970 * 1000).rounded()),
            voidedTime: Millis((record.voidedTime.timeIntervalSince1970 * 1000).rounded()), source: record.source, reason: record.reason,
            quantity: record.quantity)
    }
}

extension PlaySettings {
    /// Settings for an in-process Google Play simulator: its service account, its URLs, and
    /// the demo's push audience.
    static func forSimulator(_ server: PlaySimulatorServer) throws -> PlaySettings {
        let simulator = server.simulator
        let keyFile = try JSONSerialization.data(withJSONObject: simulator.keys.serviceAccountFile(tokenURI: server.tokenURI))
        return PlaySettings(
            packageNames: simulator.packageNames, serviceAccount: try ServiceAccountKey(json: keyFile), apiBase: server.baseURL,
            push: PushSettings(
                audience: DemoPlayTickets.pushAudience, serviceAccountEmail: simulator.keys.pushServiceAccountEmail, certsURL: server.certsURL),
            requestTimeout: .seconds(5))
    }
}
