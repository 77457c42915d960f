import Foundation

/// A whole verifyReceipt answer, including the iOS 6 shapes (a transaction receipt's
/// fields directly under `receipt`, `latest_receipt_info` as one object, and 21006's
/// `latest_expired_receipt_info`).
///
/// Properties are Apple's JSON fields in camel case (`latest_receipt_info` is
/// `latestReceiptInfo`), with the meanings Apple's documentation of the verifyReceipt
/// response body gives them. Every field is
/// optional and numbers Apple sends as strings are accepted, so an answer Apple shaped
/// differently still decodes and the store can say what was missing.
public struct VerifyReceiptResponse: Sendable, Equatable, Decodable {
    public var status: Int
    /// `Production` or `Sandbox`.
    public var environment: String?
    /// `is_retryable` / `is-retryable`, set on 211xx answers.
    public var isRetryable: Bool?
    public var receipt: ReceiptSection?
    public var latestReceiptInfo: [ReceiptTransaction]
    /// iOS 6 transaction receipts whose subscription expired (status 21006).
    public var latestExpiredReceiptInfo: ReceiptTransaction?
    public var pendingRenewalInfo: [PendingRenewalInfo]
    /// The latest base64 receipt Apple holds for this app.
    public var latestReceipt: String?

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        guard let status = try c.lenientInt("status") else {
            throw DecodingError.keyNotFound(AnyKey("status"), .init(codingPath: [], debugDescription: "a verifyReceipt answer always has a status"))
        }
        self.status = Int(status)
        environment = try c.lenientString("environment")
        isRetryable = try c.lenientBool("is_retryable", "is-retryable")
        receipt = c.contains(AnyKey("receipt")) ? try c.decodeIfPresent(ReceiptSection.self, forKey: AnyKey("receipt")) : nil
        latestReceiptInfo = try Self.oneOrMany(c, "latest_receipt_info")
        latestExpiredReceiptInfo = try c.decodeIfPresent(ReceiptTransaction.self, forKey: AnyKey("latest_expired_receipt_info"))
        pendingRenewalInfo = try Self.oneOrMany(c, "pending_renewal_info")
        latestReceipt = try c.lenientString("latest_receipt")
    }

    private static func oneOrMany<T: Decodable>(_ c: KeyedDecodingContainer<AnyKey>, _ name: String) throws -> [T] {
        let key = AnyKey(name)
        guard c.contains(key), !(try c.decodeNil(forKey: key)) else { return [] }
        // An array's own errors must surface (they name the bad field), so ask its shape first.
        if (try? c.nestedUnkeyedContainer(forKey: key)) != nil { return try c.decode([T].self, forKey: key) }
        return [try c.decode(T.self, forKey: key)]
    }

    /// Decodes verifyReceipt's JSON answer.
    ///
    /// - Throws: ``ReceiptError/malformed(_:)`` naming the field that does not decode (Apple
    ///   sends some numbers as strings and some arrays as single objects; both are taken).
    public static func decode(_ bytes: [UInt8]) throws(ReceiptError) -> VerifyReceiptResponse {
        do {
            return try JSONDecoder().decode(VerifyReceiptResponse.self, from: Data(bytes))
        } catch {
            throw .malformed("verifyReceipt answer: \(JSONErrors.describe(error))")
        }
    }

    /// Every transaction the answer mentions, newest purchase first, without duplicates.
    public var allTransactions: [ReceiptTransaction] {
        var seen = Set<String>()
        var result: [ReceiptTransaction] = []
        let sources = latestReceiptInfo + (receipt?.inApp ?? []) + [receipt?.legacyTransaction, latestExpiredReceiptInfo].compactMap { $0 }
        for transaction in sources {
            let key = transaction.transactionId ?? UUID().uuidString
            if seen.insert(key).inserted { result.append(transaction) }
        }
        return result.sorted { ($0.purchaseDate ?? .distantPast) > ($1.purchaseDate ?? .distantPast) }
    }
}

/// The `receipt` object: the app receipt as Apple decoded it, fields named as in
/// ``VerifyReceiptResponse``.
public struct ReceiptSection: Sendable, Equatable, Decodable {
    public var receiptType: String?
    public var adamId: Int64?
    public var appItemId: Int64?
    public var bundleId: String?
    public var applicationVersion: String?
    public var originalApplicationVersion: String?
    public var receiptCreationDate: Date?
    public var requestDate: Date?
    public var originalPurchaseDate: Date?
    public var expirationDate: Date?
    public var inApp: [ReceiptTransaction]
    /// iOS 6 transaction receipts put one transaction's fields directly in `receipt`.
    public var legacyTransaction: ReceiptTransaction?

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        receiptType = try c.lenientString("receipt_type")
        adamId = try c.lenientInt("adam_id")
        appItemId = try c.lenientInt("app_item_id", "item_id")
        bundleId = try c.lenientString("bundle_id", "bid")
        applicationVersion = try c.lenientString("application_version", "bvrs")
        originalApplicationVersion = try c.lenientString("original_application_version")
        receiptCreationDate = try c.lenientDate("receipt_creation_date")
        requestDate = try c.lenientDate("request_date")
        originalPurchaseDate = try c.lenientDate("original_purchase_date")
        expirationDate = try c.lenientDate("expiration_date")
        inApp = try c.decodeIfPresent([ReceiptTransaction].self, forKey: AnyKey("in_app")) ?? []
        legacyTransaction = c.contains(AnyKey("transaction_id")) ? try ReceiptTransaction(from: decoder) : nil
    }
}

/// One row of `in_app` / `latest_receipt_info`: a transaction, fields named as in
/// ``VerifyReceiptResponse``. Dates come as `…_ms` strings of milliseconds.
public struct ReceiptTransaction: Sendable, Equatable, Decodable {
    public var quantity: Int64?
    public var productId: String?
    public var transactionId: String?
    public var originalTransactionId: String?
    public var purchaseDate: Date?
    public var originalPurchaseDate: Date?
    public var expiresDate: Date?
    public var cancellationDate: Date?
    public var cancellationReason: Int64?
    public var webOrderLineItemId: String?
    public var isTrialPeriod: Bool?
    public var isInIntroOfferPeriod: Bool?
    public var isUpgraded: Bool?
    public var promotionalOfferId: String?
    public var offerCodeRefName: String?
    public var subscriptionGroupIdentifier: String?
    public var inAppOwnershipType: String?

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        quantity = try c.lenientInt("quantity")
        productId = try c.lenientString("product_id")
        transactionId = try c.lenientString("transaction_id")
        originalTransactionId = try c.lenientString("original_transaction_id")
        purchaseDate = try c.lenientDate("purchase_date")
        originalPurchaseDate = try c.lenientDate("original_purchase_date")
        expiresDate = try c.lenientDate("expires_date")
        cancellationDate = try c.lenientDate("cancellation_date")
        cancellationReason = try c.lenientInt("cancellation_reason")
        webOrderLineItemId = try c.lenientString("web_order_line_item_id")
        isTrialPeriod = try c.lenientBool("is_trial_period")
        isInIntroOfferPeriod = try c.lenientBool("is_in_intro_offer_period")
        isUpgraded = try c.lenientBool("is_upgraded")
        promotionalOfferId = try c.lenientString("promotional_offer_id")
        offerCodeRefName = try c.lenientString("offer_code_ref_name")
        subscriptionGroupIdentifier = try c.lenientString("subscription_group_identifier")
        inAppOwnershipType = try c.lenientString("in_app_ownership_type")
    }
}

/// One row of `pending_renewal_info`: a subscription's renewal intent, fields named as in
/// ``VerifyReceiptResponse``.
public struct PendingRenewalInfo: Sendable, Equatable, Decodable {
    public var originalTransactionId: String?
    public var productId: String?
    public var autoRenewProductId: String?
    public var autoRenewStatus: Bool?
    public var expirationIntent: Int64?
    public var isInBillingRetryPeriod: Bool?
    public var gracePeriodExpiresDate: Date?
    public var priceConsentStatus: Int64?
    public var offerCodeRefName: String?
    public var promotionalOfferId: String?

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        originalTransactionId = try c.lenientString("original_transaction_id")
        productId = try c.lenientString("product_id")
        autoRenewProductId = try c.lenientString("auto_renew_product_id")
        autoRenewStatus = try c.lenientBool("auto_renew_status")
        expirationIntent = try c.lenientInt("expiration_intent")
        isInBillingRetryPeriod = try c.lenientBool("is_in_billing_retry_period")
        gracePeriodExpiresDate = try c.lenientDate("grace_period_expires_date")
        priceConsentStatus = try c.lenientInt("price_consent_status")
        offerCodeRefName = try c.lenientString("offer_code_ref_name")
        promotionalOfferId = try c.lenientString("promotional_offer_id")
    }
}
