import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import SyntheticData
import TestSupport
import Testing

/// `iapdesk order find MK…` as support runs it from a player's emailed invoice: the same
/// lookup as the console's `:order MK…`, against a simulator named in the configuration.
@Suite("CLI: Apple's order id")
struct AppleOrderFindCommandTests {
    @Test(
        "order find MK… prints each purchase on the invoice and where it leads (the order waiting for it); while Apple does not answer it says so and fails, never 'nothing matches'"
    )
    func findByInvoice() async throws {
        let simulator = try AppStoreSimulator(bundleId: DemoCatalogue.bundleId, sharedSecret: "cli-secret")
        let server = try await SimulatorServer.start(simulator)
        let desk = try await SimulatedDesk.make(simulator, server: server, named: "mk", timeoutSeconds: 5)
        let store = try await desk.open()
        do {
            for product in DemoCatalogue.products { try await store.catalogue.upsert(product) }
            _ = try await store.orders.place(orderId: "cli-1", accountId: "acct-cli", productId: "coins_980")
        } catch {
            await store.close()
            throw error
        }
        await store.close()
        let paid = await simulator.ledger.purchase(appleId: "cli@icloud", productId: "coins_980", appAccountToken: "cli-1")

        await simulator.faults.set(FaultProfile(faults: [.init(.http(503))]))
        let (downStatus, downOut, downError) = try await CLIErrorTests.run(["order", "find", paid.appleOrderId, "--config", desk.config])
        #expect(downStatus != 0 && downError.contains("Apple did not answer") && downError.contains("try again"), "\(downOut)\(downError)")
        #expect(!(downOut + downError).localizedCaseInsensitiveContains("nothing matches"))

        await simulator.faults.set(.none)
        let (status, out, error) = try await CLIErrorTests.run(["order", "find", paid.appleOrderId, "--config", desk.config])
        #expect(status == 0, "\(error)")
        #expect(out.contains(paid.transactionId) && out.contains("waiting: order cli-1"), "\(out)")
        #expect(error.contains("1 waiting for an order to claim it"), "\(error)")
        await server.stop()
    }
}
