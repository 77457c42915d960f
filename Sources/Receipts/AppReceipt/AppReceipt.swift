import Foundation

/// A decoded app receipt: the payload of Apple's PKCS#7 container with every documented
/// app-level field (types 0–21) and its in-app purchases (type 17, fields 1701–1721).
/// Fields Apple left out are nil; undocumented attributes are kept in `otherAttributes`
/// so the raw view can still show them.
public struct AppReceipt: Sendable, Equatable {
    /// `Production`, `ProductionSandbox`, `Sandbox` or `Xcode` (type 0, undocumented).
    public var receiptType: String?
    /// The app's App Store item id (type 1, undocumented).
    public var appItemId: Int64?
    public var bundleId: String?
    public var appVersion: String?
    public var opaqueValue: [UInt8]?
    public var sha1Hash: [UInt8]?
    public var receiptCreationDate: Date?
    /// Undocumented "transaction date" (type 8).
    public var requestDate: Date?
    public var originalPurchaseDate: Date?
    public var originalApplicationVersion: String?
    public var expirationDate: Date?
    public var inAppPurchases: [InAppPurchase]
    public var otherAttributes: [ReceiptAttribute]

    public init(
        receiptType: String? = nil, appItemId: Int64? = nil, bundleId: String? = nil, appVersion: String? = nil,
        opaqueValue: [UInt8]? = nil, sha1Hash: [UInt8]? = nil, receiptCreationDate: Date? = nil,
        requestDate: Date? = nil, originalPurchaseDate: Date? = nil, originalApplicationVersion: String? = nil,
        expirationDate: Date? = nil, inAppPurchases: [InAppPurchase] = [], otherAttributes: [ReceiptAttribute] = []
    ) {
        self.receiptType = receiptType
        self.appItemId = appItemId
        self.bundleId = bundleId
        self.appVersion = appVersion
        self.opaqueValue = opaqueValue
        self.sha1Hash = sha1Hash
        self.receiptCreationDate = receiptCreationDate
        self.requestDate = requestDate
        self.originalPurchaseDate = originalPurchaseDate
        self.originalApplicationVersion = originalApplicationVersion
        self.expirationDate = expirationDate
        self.inAppPurchases = inAppPurchases
        self.otherAttributes = otherAttributes
    }

    /// Xcode (StoreKit testing) receipts are signed by a local self-signed certificate.
    public var isXcode: Bool { receiptType == "Xcode" }
}

/// One in-app purchase of an app receipt (one type-17 attribute).
public struct InAppPurchase: Sendable, Equatable {
    public var quantity: Int64?
    public var productId: String?
    public var transactionId: String?
    public var originalTransactionId: String?
    public var purchaseDate: Date?
    public var originalPurchaseDate: Date?
    /// 0 non-consumable, 1 consumable, 2 non-renewing, 3 auto-renewable (type 1707, undocumented).
    public var productType: Int64?
    public var expiresDate: Date?
    /// 64 bits: real values exceed 2^32.
    public var webOrderLineItemId: Int64?
    /// Nil when not cancelled (Apple writes an empty string for "not cancelled").
    public var cancellationDate: Date?
    public var isTrialPeriod: Bool?
    public var isInIntroOfferPeriod: Bool?
    public var promotionalOfferId: String?
    public var otherAttributes: [ReceiptAttribute]

    public init(
        quantity: Int64? = nil, productId: String? = nil, transactionId: String? = nil,
        originalTransactionId: String? = nil, purchaseDate: Date? = nil, originalPurchaseDate: Date? = nil,
        productType: Int64? = nil, expiresDate: Date? = nil, webOrderLineItemId: Int64? = nil,
        cancellationDate: Date? = nil, isTrialPeriod: Bool? = nil, isInIntroOfferPeriod: Bool? = nil,
        promotionalOfferId: String? = nil, otherAttributes: [ReceiptAttribute] = []
    ) {
        self.quantity = quantity
        self.productId = productId
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.productType = productType
        self.expiresDate = expiresDate
        self.webOrderLineItemId = webOrderLineItemId
        self.cancellationDate = cancellationDate
        self.isTrialPeriod = isTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
        self.promotionalOfferId = promotionalOfferId
        self.otherAttributes = otherAttributes
    }
}

/// An attribute iapdesk has no typed field for, kept as Apple sent it.
public struct ReceiptAttribute: Sendable, Equatable {
    public var type: Int64
    public var version: Int64
    /// A readable form when the value is a string or integer, otherwise nil.
    public var text: String?
    public var byteCount: Int
}
