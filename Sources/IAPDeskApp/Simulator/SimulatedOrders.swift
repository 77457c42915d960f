import AppStoreSimulator
import Foundation
import IAPDeskCLI
import OrderDomain
import OrderStore
import SyntheticData

/// Paid orders whose receipts the simulator signed: each one bought on its own simulated
/// Apple ID, placed in the store and its receipt stored (R1), left `receipt_received`
/// for re-verification. The demo, `iapdesk simulator --seed-store` and the bulk
/// re-verification benchmark start from these.
public enum SimulatedOrders {
    /// One product of each type from the demo catalogue, in turn.
    public static let rotation = ["coins_60", "no_ads", "pass_30d", "vip_monthly", "coins_300"]

    /// Seeds `count` orders (`sim_000001`…); every `sandboxEvery`-th is a sandbox purchase
    /// (App Review pays in sandbox [S2]). With `claimTransaction` the client named its
    /// transaction, so re-verification can use the Server API.
    @discardableResult
    public static func seed(
        _ store: OrderStore, simulator: AppStoreSimulator, count: Int, sandboxEvery: Int = 10,
        claimTransaction: Bool = true, prefix: String = "sim", now: Date = Date()
    ) async throws -> [String] {
        for product in DemoCatalogue.products { try await store.catalogue.upsert(product) }
        let types = Dictionary(uniqueKeysWithValues: DemoCatalogue.products.map { ($0.productId, $0.type) })
        var orderIds: [String] = []
        for index in 1...max(1, count) {
            let productId = rotation[index % rotation.count]
            guard let type = types[productId], let kind = SimulatedPurchase.Kind(name: type.rawValue) else { continue }
            let orderId = "\(prefix)_\(String(format: "%06d", index))"
            let placed = now.addingTimeInterval(-600)
            try await store.orders.place(
                orderId: orderId, accountId: "\(prefix)_acct_\(index)", productId: productId, at: Millis(placed.timeIntervalSince1970 * 1000))
            let appleId = "\(prefix)-player-\(index)@icloud.example"
            let sandbox = sandboxEvery > 0 && index % sandboxEvery == 0
            let purchase = await simulator.ledger.purchase(
                appleId: appleId, productId: productId, kind: kind, sandbox: sandbox, at: now.addingTimeInterval(-540), appAccountToken: orderId)
            let receipt = try await simulator.ledger.receipt(appleId: appleId, sandbox: sandbox, at: now.addingTimeInterval(-530))
            try await store.orders.submit(
                orderId: orderId, receiptData: receipt, claimedTransactionId: claimTransaction ? purchase.transactionId : nil,
                at: Millis(now.addingTimeInterval(-520).timeIntervalSince1970 * 1000))
            orderIds.append(orderId)
        }
        return orderIds
    }
}
