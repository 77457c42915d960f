/// One transaction as Apple reports it (a row of `in_app` / `latest_receipt_info`, or a
/// decoded JWS transaction). Ids stay strings: Apple's are numeric strings of up to 16
/// digits and must round-trip exactly.
public struct AppleTransaction: Sendable, Equatable, Codable, Hashable {
    public var transactionId: String
    public var originalTransactionId: String
    public var productId: String
    public var quantity: Int
    public var purchaseDate: Millis
    public var originalPurchaseDate: Millis?
    public var expiresDate: Millis?
    /// Set when Apple refunded or revoked the purchase (R9).
    public var cancellationDate: Millis?
    public var cancellationReason: Int?
    public var webOrderLineItemId: String?
    /// `PURCHASED` or `FAMILY_SHARED`.
    public var ownershipType: String?
    /// The `appAccountToken` / `applicationUsername` the app sent: our order id.
    public var appAccountToken: String?

    public init(
        transactionId: String, originalTransactionId: String, productId: String, quantity: Int = 1,
        purchaseDate: Millis, originalPurchaseDate: Millis? = nil, expiresDate: Millis? = nil,
        cancellationDate: Millis? = nil, cancellationReason: Int? = nil, webOrderLineItemId: String? = nil,
        ownershipType: String? = "PURCHASED", appAccountToken: String? = nil
    ) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.quantity = quantity
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.cancellationDate = cancellationDate
        self.cancellationReason = cancellationReason
        self.webOrderLineItemId = webOrderLineItemId
        self.ownershipType = ownershipType
        self.appAccountToken = appAccountToken
    }
}

/// Apple's renewal intent for one auto-renewable subscription (`pending_renewal_info`,
/// or the renewal info JWS): does it still renew?
public struct AppleRenewalInfo: Sendable, Equatable, Codable {
    public var originalTransactionId: String
    public var productId: String
    public var autoRenewEnabled: Bool
    public var expirationIntent: Int?

    public init(originalTransactionId: String, productId: String, autoRenewEnabled: Bool, expirationIntent: Int? = nil) {
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.autoRenewEnabled = autoRenewEnabled
        self.expirationIntent = expirationIntent
    }
}
