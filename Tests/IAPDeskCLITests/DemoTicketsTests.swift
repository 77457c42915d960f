import AppStore
import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import Presentation
import SyntheticData
import TestSupport
import Testing

@testable import IAPDeskApp
@testable import IAPDeskCLI

/// The demo's three tickets, each one support is asked about most, seeded as they happen in
/// life and practised against the demo's own App Store simulator.
@Suite("Demo: the tickets support is asked about most")
struct DemoTicketsTests {
    @Test(
        "The demo holds a purchase found only by its invoice id (it leads to the order waiting for it), a commitment subscriber who cancelled, and a live subscription whose first period Apple refunded; each account carries its ticket"
    )
    func tickets() async throws {
        let folder = Scratch.url("iapdesk-demo-tickets-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try await OrderStore.open(.sqlite(path: folder + "/demo.sqlite"), settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        let simulator = try AppStoreSimulator(bundleId: DemoCatalogue.bundleId, sharedSecret: "demo-secret")
        let server = try await SimulatorServer.start(simulator)
        do {
            for product in DemoCatalogue.products { try await store.catalogue.upsert(product) }
            try await AppleVerifier.using(try AppStoreSettings.forSimulator(server, secret: "demo-secret")) { verifier in
                let tickets = try await DemoAppleTickets.seed(store, simulator: simulator, verifier: verifier)
                #expect(tickets.count == 3)
                // Ticket 1: the invoice id from the player's email, never seen by the store.
                let mk = try #require(tickets[0].text.split(separator: " ").first { $0.hasPrefix("MK") }.map { String($0.prefix { $0 != ")" }) })
                #expect(try await store.orders.lookup(mk).isEmpty, "only Apple knows the id")
                let client = try #require(verifier.serverAPI)
                let found = try await store.orders.findAppleOrder(mk) { await client.invoice($0, environment: $1) }
                let lead = try #require(found.invoice?.purchases.first?.lead)
                #expect(lead == .waiting(try #require(try await store.orders.find("demo_mk_1")), .appAccountToken), "\(lead)")
            }
            // Ticket 2: a commitment subscriber on their third payment, cancelled during the commitment.
            let commit = try await store.orders.detail("demo_commit_1")
            let otid = try #require(commit.order.originalTransactionId)
            let subscription = try await store.subscriptions.detail(otid)
            #expect(subscription.subscription?.renewal.commitment?.renews == false && subscription.subscription?.autoRenew == true)
            let page = (SubscriptionPresentation.sections(subscription, storeIsProduction: true) ?? []).flatMap(\.lines).map(\.text)
            #expect(page.contains { $0.hasPrefix("monthly, payment 3 of 12, committed until") }, "\(page)")
            // Ticket 3: the first period refunded, the subscription live.
            let refunded = try await store.orders.detail("demo_rp_1")
            #expect(refunded.order.state == .refunded && refunded.grants.first?.revokedAt != nil)
            let live = try await store.subscriptions.detail(try #require(refunded.order.originalTransactionId))
            #expect(live.subscription?.status == .active && live.chain.first?.transaction.cancellationDate != nil)
            for account in ["demo_ticket_mk", "demo_commit", "demo_refund_period"] {
                #expect(try await store.notes.list(on: .account(account)).first?.text.hasPrefix("Ticket:") == true, "\(account) carries its ticket")
            }
        } catch {
            await server.stop()
            await store.close()
            throw error
        }
        await server.stop()
        await store.close()
    }
}
