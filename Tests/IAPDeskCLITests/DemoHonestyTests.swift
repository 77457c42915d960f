import AppStore
import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import SyntheticData
import TestSupport
import Testing

@testable import IAPDeskApp
@testable import IAPDeskCLI

/// The demo's App Store knows every purchase its synthetic players paid for, and keeps
/// knowing them when the demo store is reopened: re-verifying the stuck queue delivers
/// every paid order and rejects none, as it would against the real Apple.
@Suite("Demo: an honest simulated App Store")
struct DemoHonestyTests {
    @Test(
        "Seeded, saved, reloaded: the whole stuck queue re-verified through the reloaded simulator; no paid order rejected; missed refunds settle disputes for the submitter"
    )
    func stuckQueueAfterReopen() async throws {
        let folder = Scratch.url("iapdesk-demo-honest-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try await OrderStore.open(.sqlite(path: folder + "/demo.sqlite"), settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        let first = try AppStoreSimulator(bundleId: DemoCatalogue.bundleId, sharedSecret: "demo-secret")
        let summary = try await SeededPurchases.seed(store, simulator: first, orders: 20_000, seed: 1)
        #expect(summary.disputes >= 2, "the seed must hold disputes for this test to mean something")
        try await SavedSimulator.save(first, in: folder + "/sim")

        // Reopened later: a new process, the saved simulator.
        let simulator = try await SavedSimulator.load(from: folder + "/sim")
        #expect(await simulator.ledger.all.count == summary.purchases.count)
        let server = try await SimulatorServer.start(simulator)
        let actor = Operator(name: "ops-admin", role: .admin)
        try await store.operators.add(name: actor.name, role: .admin, by: actor)

        var stuck: [StuckOrder] = []
        var cursor: StuckCursor?
        repeat {
            let page = try await store.reports.stuck(after: cursor, limit: 200)
            stuck += page.items
            cursor = page.next
        } while cursor != nil
        let paid = stuck.filter { $0.order.state != .disputed }.map(\.order.orderId)
        let disputed = stuck.filter { $0.order.state == .disputed }.map(\.order.orderId)
        #expect(paid.count >= 10)

        try await AppleVerifier.using(try AppStoreSettings.forSimulator(server, secret: "demo-secret")) { verifier in
            let result = await store.apple.reverifyAll(paid + disputed, using: verifier, by: actor, concurrency: 8)
            #expect(result.failed.isEmpty, "\(result.failed)")
        }
        await server.stop()

        for id in paid {
            let order = try await store.orders.detail(id).order
            #expect(order.state == .delivered, "\(id) is \(order.state.rawValue): \(order.lastError ?? "")")
        }
        let settled = try await disputed.asyncMap { try await store.orders.detail($0).order }
        #expect(settled.allSatisfy { $0.state == .delivered || $0.state == .disputed })
        #expect(settled.contains { $0.state == .delivered }, "seeded disputes hide refunds of the owner's period that Apple knows of")
        for order in settled where order.state == .delivered {
            let verdict = try await store.orders.detail(order.orderId).attempts.last?.verdict
            #expect(verdict?.ownershipVerdict == .transfer || verdict?.ownershipVerdict == .sameOwner, "\(order.orderId): \(String(describing: verdict))")
        }
        #expect(try await store.reports.counts().byState[.rejected] == summary.byState[.rejected], "no paid order rejected")
        await store.close()
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
