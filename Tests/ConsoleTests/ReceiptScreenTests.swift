import AppStore
import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import SyntheticData
import Terminal
import TestSupport
import Testing

@testable import Console

/// The receipt screen against the real simulator: the submitted receipt decoded locally
/// before Apple is asked, then Apple's stored answer with its verdicts and R5 checks.
@Suite("Receipt screen")
struct ReceiptScreenTests {
    @Test("v shows the local decoding, r asks Apple, v then shows the answer, its checks and the order's transaction; t shows the raw text")
    func receiptScreen() async throws {
        let simulator = try AppStoreSimulator(bundleId: DemoCatalogue.bundleId, sharedSecret: "s")
        let server = try await SimulatorServer.start(simulator)
        let settings = AppStoreSettings(
            bundleId: DemoCatalogue.bundleId, verifyReceipt: .simulator(server.baseURL, sharedSecret: Secret(value: "s", origin: "test")),
            trust: simulator.trustRoots)
        let verifier = AppleVerifier(settings: settings)
        var failure: (any Error)?
        do {
            try await withTemporaryStore { store in try await Self.walkThrough(store, simulator, verifier) }
        } catch {
            failure = error
        }
        await verifier.shutdown()
        await server.stop()
        if let failure { throw failure }
    }

    /// An order paid with a receipt the simulator signed, read before and after re-verifying.

    static func walkThrough(_ store: OrderStore, _ simulator: AppStoreSimulator, _ verifier: AppleVerifier) async throws {
        for product in DemoCatalogue.products { try await store.catalogue.upsert(product) }
        let ids = ["o1"]
        try await store.orders.place(orderId: "o1", accountId: "a1", productId: "coins_60", at: .now() - 60_000)
        await simulator.ledger.purchase(appleId: "p@icloud", productId: "coins_60", kind: .consumable, appAccountToken: "o1")
        try await store.orders.submit(orderId: "o1", receiptData: try await simulator.ledger.receipt(appleId: "p@icloud"))
        let terminal = MemoryTerminal(rows: 40, cols: 100)
        let app = ConsoleApp(
            session: ConsoleSession(
                store: store, actor: Operator(name: "alice", role: .support), storeLabel: "t",
                verifier: verifier, trust: simulator.trustRoots, answers: StoredAnswers(trust: simulator.trustRoots)), device: terminal)
        await app.open()

        await app.press(.character("v"))
        var text = try #require(terminal.lastFrame).text
        #expect(text.contains("Receipt · \(ids[0])"))
        #expect(text.contains("Apple not asked yet"))
        #expect(text.contains("✓ receipt: VERIFIED iapdesk App Store Simulator Root CA"))
        await app.press(.character("t"))
        #expect(try #require(terminal.lastFrame).text.contains("MII"))  // the base64 PKCS#7 itself
        await app.press(.escape)

        await app.press(.character("r"))
        await app.settle()
        #expect(try #require(terminal.lastFrame).text.contains("→ delivered"))
        await app.press(.character("v"))
        text = try #require(terminal.lastFrame).text
        #expect(text.contains("Apple's answer to the latest call: verify_receipt Production"))
        #expect(text.contains("✓ bundle id: com.iapdesk.demo"))
        #expect(text.contains("✓ not cancelled"))
        #expect(text.contains("▶ 2000000000000001"))
        #expect(!text.contains("✗"))
    }
}
