import AppStore
import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import Receipts
import SyntheticData
import Testing

/// A real simulator on a loopback port, a real SQLite store and the real AppStore clients
/// between them: what `iapdesk order reverify` runs, with the test in Apple's seat.
public struct SimulatorHarness: Sendable {
    public let simulator: AppStoreSimulator
    public let server: SimulatorServer
    public let store: OrderStore
    public let verifier: AppleVerifier
    public static let bundleId = DemoCatalogue.bundleId
    public static let secret = "test-shared-secret"

    public var ledger: Ledger { simulator.ledger }

    /// Settings pointing at `server`; `serverAPI: false` leaves verifyReceipt only.
    public static func settings(
        for server: SimulatorServer, serverAPI: Bool = true, trust: TrustRoots? = nil, key: SimulatorAPIKey? = nil,
        timeout: Duration = .seconds(10)
    ) throws -> AppStoreSettings {
        let simulator = server.simulator
        let key = key ?? simulator.apiKey
        var settings = AppStoreSettings(
            bundleId: bundleId, verifyReceipt: .simulator(server.baseURL, sharedSecret: Secret(value: secret, origin: "test")),
            serverAPI: serverAPI
                ? try ServerAPICredentials(
                    issuerId: key.issuerId, keyId: key.keyId, p8: Secret(value: key.p8PEM, origin: "test"),
                    productionURL: server.baseURL, sandboxURL: server.baseURL + "/sandbox")
                : nil,
            trust: trust ?? simulator.trustRoots)
        settings.requestTimeout = timeout
        return settings
    }

    /// Runs `body` against a fresh simulator and store, tearing everything down after.
    public static func run(
        faults: FaultProfile = .none, serverAPI: Bool = true, timeout: Duration = .seconds(10), backend: Backend = .sqlite,
        _ body: (SimulatorHarness) async throws -> Void
    ) async throws {
        let simulator = try AppStoreSimulator(bundleId: bundleId, sharedSecret: secret, faults: faults)
        let server = try await SimulatorServer.start(simulator)
        let path = try await backend.freshLocation()
        let store = try await OrderStore.open(path, settings: StoreSettings(bundleId: bundleId))
        let verifier = AppleVerifier(settings: try settings(for: server, serverAPI: serverAPI, timeout: timeout))
        let harness = SimulatorHarness(simulator: simulator, server: server, store: store, verifier: verifier)
        do {
            for product in DemoCatalogue.products { try await store.catalogue.upsert(product) }
            try await body(harness)
        } catch {
            await harness.tearDown(path)
            throw error
        }
        await harness.tearDown(path)
    }

    private func tearDown(_ location: StoreLocation) async {
        await verifier.shutdown()
        await server.stop()
        await store.close()
        Backend.cleanUp(location)
    }

    /// A player on `appleId` buys `productId` for game account `account`: the order is
    /// placed, Apple records the purchase, and the device's receipt is stored (R1).
    @discardableResult
    public func buy(
        _ orderId: String, account: String, appleId: String, productId: String, sandbox: Bool = false, claim: Bool = true,
        token: Bool = true, at date: Date = Date()
    ) async throws -> SimulatedPurchase {
        let type = try #require(DemoCatalogue.products.first { $0.productId == productId }?.type)
        let kind = try #require(SimulatedPurchase.Kind(name: type.rawValue))
        try await store.orders.place(orderId: orderId, accountId: account, productId: productId, at: Millis(date.timeIntervalSince1970 * 1000) - 60_000)
        let purchase = await ledger.purchase(
            appleId: appleId, productId: productId, kind: kind, sandbox: sandbox, at: date, appAccountToken: token ? orderId : nil)
        try await submit(orderId, appleId: appleId, sandbox: sandbox, claim: claim ? purchase.transactionId : nil)
        return purchase
    }

    /// The device's current receipt for `appleId`, stored for `orderId`.
    public func submit(_ orderId: String, appleId: String, sandbox: Bool = false, claim: String?) async throws {
        let receipt = try await ledger.receipt(appleId: appleId, sandbox: sandbox)
        try await store.orders.submit(orderId: orderId, receiptData: receipt, claimedTransactionId: claim)
    }

    public func reverify(_ orderId: String) async throws -> VerificationOutcome {
        try await store.apple.reverify(orderId: orderId, using: verifier)
    }

    public func setFaults(_ spec: String) async throws {
        await simulator.faults.set(try FaultProfile.parse(spec))
    }
}
