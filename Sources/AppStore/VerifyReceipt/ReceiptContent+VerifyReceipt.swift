import Foundation
import OrderDomain
import Receipts

extension AppleReceiptContent {
    /// The parts of a verifyReceipt answer the rules read. iOS 6 answers carry their one
    /// transaction in `receipt` itself; 21006 answers carry `latest_expired_receipt_info`.
    public init(_ answer: VerifyReceiptResponse) {
        let receipt = answer.receipt
        var inApp = receipt?.inApp.compactMap(AppleTransaction.init) ?? []
        if let legacy = receipt?.legacyTransaction.flatMap(AppleTransaction.init) { inApp.append(legacy) }
        var latest = answer.latestReceiptInfo.compactMap(AppleTransaction.init)
        if let expired = answer.latestExpiredReceiptInfo.flatMap(AppleTransaction.init) { latest.append(expired) }
        self.init(
            bundleId: receipt?.bundleId ?? "", inApp: inApp, latestReceiptInfo: latest,
            pendingRenewals: answer.pendingRenewalInfo.compactMap { info in
                guard let original = info.originalTransactionId else { return nil }
                return AppleRenewalInfo(
                    originalTransactionId: original, productId: info.autoRenewProductId ?? info.productId ?? "",
                    autoRenewEnabled: info.autoRenewStatus ?? false, expirationIntent: info.expirationIntent.map(Int.init),
                    isInBillingRetry: info.isInBillingRetryPeriod ?? false, gracePeriodExpiresDate: info.gracePeriodExpiresDate?.millis)
            })
    }
}

extension AppleTransaction {
    /// Nil for a row without the ids every rule keys on.
    public init?(_ row: ReceiptTransaction) {
        guard let id = row.transactionId, let product = row.productId, let purchased = row.purchaseDate else { return nil }
        self.init(
            transactionId: id, originalTransactionId: row.originalTransactionId ?? id, productId: product,
            quantity: Int(row.quantity ?? 1), purchaseDate: purchased.millis, originalPurchaseDate: row.originalPurchaseDate?.millis,
            expiresDate: row.expiresDate?.millis, cancellationDate: row.cancellationDate?.millis,
            cancellationReason: row.cancellationReason.map(Int.init), webOrderLineItemId: row.webOrderLineItemId,
            ownershipType: row.inAppOwnershipType ?? "PURCHASED", isUpgraded: row.isUpgraded ?? false)
    }
}

extension Date {
    var millis: Millis { Millis((timeIntervalSince1970 * 1000).rounded()) }
}
