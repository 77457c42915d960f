import Foundation

/// `JWSTransactionDecodedPayload` as the simulator signs it: Apple's field names, dates in
/// milliseconds since 1970.
struct TransactionPayload: Encodable {
    var transactionId: String
    var originalTransactionId: String
    var webOrderLineItemId: String?
    var bundleId: String
    var productId: String
    var subscriptionGroupIdentifier: String?
    var purchaseDate: Int64
    var originalPurchaseDate: Int64
    var expiresDate: Int64?
    var quantity = 1
    var type: String
    var appAccountToken: String?
    var inAppOwnershipType = "PURCHASED"
    var signedDate: Int64
    var revocationReason: Int?
    var revocationDate: Int64?
    var environment: String
    var transactionReason: String
    var storefront = "CHN"
    var storefrontId = "143465"
    var currency = "CNY"
    var price: Int64 = 6000

    init(_ p: SimulatedPurchase, bundleId: String, signedAt: Date) {
        transactionId = p.transactionId
        originalTransactionId = p.originalTransactionId
        webOrderLineItemId = p.webOrderLineItemId.map(String.init)
        self.bundleId = bundleId
        productId = p.productId
        subscriptionGroupIdentifier = p.kind == .autoRenewable ? "21000001" : nil
        purchaseDate = p.purchaseDate.milliseconds
        originalPurchaseDate = p.purchaseDate.milliseconds
        expiresDate = p.expiresDate?.milliseconds
        type = p.kind.serverAPIName
        appAccountToken = p.appAccountToken
        signedDate = signedAt.milliseconds
        revocationReason = p.cancellationReason
        revocationDate = p.cancellationDate?.milliseconds
        environment = p.isSandbox ? "Sandbox" : "Production"
        transactionReason = p.transactionId == p.originalTransactionId ? "PURCHASE" : "RENEWAL"
    }
}

/// `JWSRenewalInfoDecodedPayload`.
struct RenewalPayload: Encodable {
    var originalTransactionId: String
    var autoRenewProductId: String
    var productId: String
    var autoRenewStatus: Int
    var expirationIntent: Int?
    var renewalDate: Int64?
    var signedDate: Int64
    var environment: String

    init(_ latest: SimulatedPurchase, signedAt: Date) {
        originalTransactionId = latest.originalTransactionId
        autoRenewProductId = latest.productId
        productId = latest.productId
        autoRenewStatus = latest.autoRenew ? 1 : 0
        expirationIntent = latest.autoRenew ? nil : 1  // 1: the customer cancelled
        renewalDate = latest.autoRenew ? latest.expiresDate?.milliseconds : nil
        signedDate = signedAt.milliseconds
        environment = latest.isSandbox ? "Sandbox" : "Production"
    }
}

extension SimulatedPurchase.Kind {
    /// The `type` field of a JWS transaction.
    var serverAPIName: String {
        switch self {
        case .nonConsumable: "Non-Consumable"
        case .consumable: "Consumable"
        case .nonRenewing: "Non-Renewing Subscription"
        case .autoRenewable: "Auto-Renewable Subscription"
        }
    }
}

extension Date {
    var milliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }
}
