import ArgumentParser
import Foundation
import OrderStore

/// `iapdesk demo`: a seeded store to explore. The console (issue 5) will open on it; until
/// it lands, this seeds the store and prints the commands that work on it today.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "demo", abstract: "Seed a demo store and show how to explore it.")

    @Option(help: "Where to put the demo store (default: a new temp file).") var db: String?
    @Option(help: "How many orders.") var orders: Int = 20_000
    @Option(help: "Random seed.") var seed: UInt64 = 1

    func run() async throws {
        let path = db ?? FileManager.default.temporaryDirectory.appendingPathComponent("iapdesk-demo-\(UUID().uuidString.prefix(8)).sqlite").path
        let settings = StoreSettings(bundleId: DemoCatalogue.bundleId)
        let store = try await OrderStore.open(StoreLocation(path), settings: settings)
        do {
            let summary = try await SyntheticStore(orders: orders, seed: seed).write(into: store)
            let user = OperatorIdentity.osUser
            if try await store.role(of: user) == .viewer { try await store.addOperator(name: user, role: .admin, by: Operator(name: user, role: .admin)) }
            let stuck = try await store.stuckOrders(limit: 1).items.first?.order.orderId ?? "ord_000000001"
            await store.close()
            print("""
                demo store: \(path) (\(summary.orders) orders, \(summary.disputes) open disputes, \(summary.orphans) orphans; you are admin)

                The ncurses console is not built yet (issue 5). Meanwhile every console action works here:
                  export IAPDESK_DB=\(path) IAPDESK_BUNDLE_ID=\(DemoCatalogue.bundleId)
                  swift run iapdesk stuck
                  swift run iapdesk order show \(stuck)
                  swift run iapdesk order grant \(stuck) --reason "ticket 1: paid, Apple timed out"
                  swift run iapdesk subscription disputes
                  swift run iapdesk orphans
                  swift run iapdesk audit verify
                """)
        } catch {
            await store.close()
            throw error
        }
    }
}
