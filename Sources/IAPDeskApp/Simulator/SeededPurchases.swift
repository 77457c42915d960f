import AppStoreSimulator
import Foundation
import IAPDeskCLI
import OrderDomain
import OrderStore
import SyntheticData

/// The demo's synthetic history, made known to its App Store simulator: every paid
/// purchase the generator invents is one the simulator remembers, and the receipt stored
/// for it is one the simulator signed. Re-verifying a seeded order then asks an Apple that
/// knows the purchase, as the real one would; nothing is rejected for the demo's sake.
enum SeededPurchases {
    /// Signs one purchase's receipt with `simulator`'s authority.
    static func signer(for simulator: AppStoreSimulator) -> SyntheticReceiptSigner {
        let minter = ReceiptMinter(authority: simulator.authority)
        let bundleId = simulator.bundleId
        return { purchase in
            let simulated = SimulatedPurchase(purchase)
            return try minter.mint(
                Ledger.appReceipt(
                    bundleId: bundleId, holding: [simulated], sandbox: simulated.isSandbox,
                    at: simulated.purchaseDate.addingTimeInterval(10)))
        }
    }

    /// Seeds `store` with `orders` synthetic orders whose purchases `simulator` then knows.
    @discardableResult
    static func seed(_ store: OrderStore, simulator: AppStoreSimulator, orders: Int, seed: UInt64) async throws -> SyntheticStore.Summary {
        let summary = try await SyntheticStore(orders: orders, seed: seed, signer: signer(for: simulator)).write(into: store)
        await simulator.ledger.adopt(summary.purchases.map(SimulatedPurchase.init))
        return summary
    }
}

extension SimulatedPurchase {
    init(_ synthetic: SyntheticPurchase) {
        let kind: Kind =
            switch synthetic.type {
            case .consumable: .consumable
            case .nonConsumable: .nonConsumable
            case .nonRenewing: .nonRenewing
            case .autoRenewable: .autoRenewable
            }
        func date(_ millis: Millis) -> Date { Date(timeIntervalSince1970: Double(millis) / 1000) }
        self.init(
            appleId: synthetic.appleAccount, transactionId: synthetic.transactionId, originalTransactionId: synthetic.originalTransactionId,
            productId: synthetic.productId, kind: kind, isSandbox: synthetic.environment == .sandbox, purchaseDate: date(synthetic.purchasedAt),
            // Apple signs an expiry for auto-renewables only; a pass's length is the game's.
            expiresDate: kind == .autoRenewable ? synthetic.expiresAt.map(date) : nil, cancellationDate: synthetic.cancelledAt.map(date),
            cancellationReason: synthetic.cancelledAt == nil ? nil : 0, webOrderLineItemId: synthetic.webOrderLineItemId.flatMap { Int64($0) },
            autoRenew: synthetic.autoRenew, appAccountToken: synthetic.orderId)
    }
}
