import AppStoreSimulator
import Foundation
import OrderDomain
import SQLKit
import SyntheticData
import TestSupport
import Testing

@testable import OrderStore

/// A studio that puts PgBouncer in transaction mode between its `serve`s and PostgreSQL:
/// every transaction may meet another server connection, so the store keeps nothing on a
/// session (`pooler=transaction` in the URL: no prepared statements, no LISTEN).
@Suite("Through PgBouncer in transaction mode", .needsPgBouncer, .takesTurns)
struct PgBouncerTests {
    @Test(
        "serve through PgBouncer with 2 server connections: intake, Apple's notifications and the worker deliver, refund and tell the game; lookups by every kind of id and the order and subscription screens answer 16 callers at once; a job another process commits is found by the idle poll"
    )
    func serveThroughPgBouncer() async throws {
        let direct = try await PostgresServer.freshDatabaseURL()
        let bouncer = try await PgBouncer.start(before: direct, serverConnections: 2)
        let location = StoreLocation.postgres(url: try bouncer.url(for: direct))
        #expect(location.behindTransactionPooler)

        try await IntakeTests.withServe(.postgres, location: location) { serve in
            await serve.wireNotifications()
            // Intake and the worker: a consumable and a subscription, delivered.
            let coins = try await NotificationTests.delivered("pb-1", product: "coins_300", kind: .consumable, account: "pb-a", in: serve)
            let vip = try await NotificationTests.delivered("pb-2", product: "vip_monthly", kind: .autoRenewable, account: "pb-b", in: serve)
            // Apple's notifications: a renewal and a refund, stored then applied by the worker.
            let renewal = try await serve.simulator.ledger.renew(originalTransactionId: vip.originalTransactionId)
            let renewed = try await NotificationTests.applied(
                try await NotificationTests.post(try await serve.simulator.notification("DID_RENEW", about: renewal), in: serve), in: serve)
            #expect(renewed.outcome == .applied, "\(renewed.said ?? "")")
            try await serve.simulator.ledger.refund(transactionId: coins.transactionId, reason: 1)
            let refunded = try #require(await serve.simulator.ledger.purchase(transactionId: coins.transactionId))
            let refund = try await NotificationTests.applied(
                try await NotificationTests.post(try await serve.simulator.notification("REFUND", about: refunded), in: serve), in: serve)
            let refundedOrder = try await serve.store.orders.find("pb-1")
            #expect(refund.outcome == .applied && refundedOrder?.state == .refunded, "\(refund.said ?? "")")

            // A console's reads, many at once through the two server connections: nothing was
            // prepared on a connection the next call may not meet.
            let console = try await OrderStore.open(location, settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
            do {
                let ids = ["pb-1", "pb-b", coins.transactionId, vip.originalTransactionId, vip.transactionId, "pb-2"]
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for caller in 0..<16 {
                        group.addTask {
                            for round in 0..<10 {
                                let id = ids[(caller + round) % ids.count]
                                let found = try #require(try await console.orders.lookup(id).first, "\(id) found")
                                let detail = try await console.orders.detail(found.orderId)
                                #expect(detail.grants.count == 1)
                                let chain = try await console.subscriptions.detail(vip.originalTransactionId)
                                #expect(chain.chain.count == 2, "the purchase and its renewal")
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                // No LISTEN through the pooler: a receipt another process stores (an operator's
                // console here) is found by the worker's idle poll, verified and delivered.
                try await console.orders.place(orderId: "pb-3", accountId: "pb-c", productId: "coins_60")
                await serve.simulator.ledger.purchase(appleId: "pb-c@icloud", productId: "coins_60", kind: .consumable, appAccountToken: "pb-3")
                let receipt = try await serve.simulator.ledger.receipt(appleId: "pb-c@icloud")
                _ = try await console.orders.submit(orderId: "pb-3", receiptData: receipt, source: .operator)
            } catch {
                await console.close()
                throw error
            }
            await console.close()
            #expect(try await IntakeTests.waitFor("delivered", order: "pb-3", in: serve)["state"] as? String == "delivered")
            #expect(
                try await serve.store.outbox.events(after: 0, limit: 100).filter { $0.type == .delivered }.count == 3, "the game is owed each delivery once")
        }
    }

    @Test(
        "Google Play through PgBouncer with 2 server connections: Google's push before the purchase is stored, the game's submission verified, granted once and acknowledged; a voided purchase's push revokes it and tells the game"
    )
    func googlePlayThroughPgBouncer() async throws {
        let direct = try await PostgresServer.freshDatabaseURL()
        let bouncer = try await PgBouncer.start(before: direct, serverConnections: 2)
        let location = StoreLocation.postgres(url: try bouncer.url(for: direct))
        try await IntakeTests.withServe(.postgres, googlePlay: true, location: location) { serve in
            let play = try GooglePlayPipelineTests.play(serve)
            let bought = try await play.purchaseAndNotify(productId: "coins_300", account: "pb-g")
            #expect(try await eventually(within: 90) { try await serve.store.googlePlay.purchase(token: bought.token) != nil }, "the push was stored")
            let submitted = try await GooglePlayPipelineTests.submit(serve, order: "pb-g1", account: "pb-g", product: "coins_300", token: bought.token)
            #expect(submitted.status == 202, "\(submitted)")
            #expect(try await IntakeTests.waitFor("delivered", order: "pb-g1", in: serve)["state"] as? String == "delivered")
            #expect(try await eventually { await play.ledger.purchase(token: bought.token)?.acknowledged == true }, "acknowledged at Google")
            try await play.voidAndNotify(bought.token)
            #expect(try await IntakeTests.waitFor("refunded", order: "pb-g1", in: serve)["state"] as? String == "refunded")
            let told = try await GooglePlayPipelineTests.events(serve, order: "pb-g1").compactMap { $0["type"] as? String }
            #expect(told == ["delivered", "refunded"], "the game is told each once: \(told)")
        }
    }

    @Test(
        "Operators' own PostgreSQL logins through PgBouncer in transaction mode: a support login grants a stuck order, a viewer login is refused by iapdesk and by the database, each audited under its own name"
    )
    func operatorLoginsThroughPgBouncer() async throws {
        let direct = try await PostgresServer.freshDatabaseURL()
        let owner = try await OrderStore.open(.postgres(url: direct), settings: .test)
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let (sue, vic) = ("pb_sue_\(suffix)", "pb_vic_\(suffix)")
        do {
            try await TestCatalogue.install(in: owner)
            _ = try await owner.paidOrder("pb-o1", account: "a1")
            _ = try await owner.setUpDatabaseRoles()
            let root = Operator(name: "root", role: .admin)
            try await owner.operators.add(name: "root", role: .admin, by: root)
            for (login, role) in [(sue, Role.support), (vic, .viewer)] {
                try await owner.operators.add(name: login, role: role, by: root)
                _ = try await owner.grantDatabaseLogin(login, role: role)
            }
            let bouncer = try await PgBouncer.start(before: direct, users: ["postgres", sue, vic], serverConnections: 2)
            func through(_ login: String) throws -> StoreLocation {
                .postgres(url: try bouncer.url(for: direct.replacingOccurrences(of: "postgres@", with: "\(login)@")))
            }
            let support = try await OrderStore.open(try through(sue), settings: .test)
            do {
                let acting = try await support.operators.actor(forUser: "root")
                #expect(acting == Operator(name: sue, role: .support) && support.databaseRoleCap == .support)
                let order = try #require(try await support.orders.find("pb-o1"))
                let granted = try await support.orders.grant(orderId: "pb-o1", expectedVersion: order.version, by: acting, reason: "ticket 11")
                #expect(granted.state == .delivered)
            } catch {
                await support.close()
                throw error
            }
            await support.close()
            let viewer = try await OrderStore.open(try through(vic), settings: .test)
            do {
                let acting = try await viewer.operators.actor(forUser: "root")
                #expect(acting.role == .viewer && viewer.databaseRoleCap == .viewer)
                #expect(try await viewer.orders.lookup("a1").map(\.orderId) == ["pb-o1"], "a viewer reads through the pooler")
                _ = try await owner.paidOrder("pb-o2", account: "a2")
                let waiting = try #require(try await viewer.orders.find("pb-o2"))
                await #expect(throws: StoreError.forbidden(action: .grantOrders, role: .viewer)) {
                    try await viewer.orders.grant(orderId: "pb-o2", expectedVersion: waiting.version, by: acting, reason: "ticket 12")
                }
                await #expect(throws: (any Error).self, "the database refuses a viewer's write") {
                    try await viewer.db.sql.raw("UPDATE operators SET role = 'admin' WHERE name = \(bind: vic)").run()
                }
            } catch {
                await viewer.close()
                throw error
            }
            await viewer.close()
            #expect(try await owner.audit.entries(limit: 10).contains { $0.actor == sue && $0.action == .grant && $0.reason == "ticket 11" })
        } catch {
            for login in [sue, vic] { _ = try? await owner.db.sql.raw(SQLQueryString("DROP ROLE IF EXISTS \(login)")).run() }
            await owner.close()
            throw error
        }
        for login in [sue, vic] { _ = try? await owner.db.sql.raw(SQLQueryString("DROP ROLE IF EXISTS \(login)")).run() }
        await owner.close()
    }
}
