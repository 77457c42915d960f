import Foundation

/// `JWSTransactionDecodedPayload` (App Store Server API): one transaction, signed by Apple.
///
/// Each property is the payload's field of the same name, with the meaning Apple's App
/// Store Server API documentation gives the payload's field. Every field
/// is optional: Apple adds fields over the years and leaves out those that do not apply,
/// and a payload missing one still decodes. Dates are ``AppleDate`` (milliseconds).
public struct JWSTransaction: Sendable, Decodable, Equatable {
    public var transactionId: String?
    public var originalTransactionId: String?
    public var webOrderLineItemId: String?
    public var bundleId: String?
    public var productId: String?
    public var subscriptionGroupIdentifier: String?
    public var purchaseDate: AppleDate?
    public var originalPurchaseDate: AppleDate?
    public var expiresDate: AppleDate?
    public var quantity: Int?
    /// `Auto-Renewable Subscription`, `Non-Consumable`, `Consumable`, `Non-Renewing Subscription`
    /// (read as ``productType``; kept as Apple wrote it for the receipt page).
    public var type: String?
    public var appAccountToken: String?
    /// `PURCHASED` or `FAMILY_SHARED`.
    public var inAppOwnershipType: String?
    public var signedDate: AppleDate?
    public var revocationReason: Int?
    public var revocationDate: AppleDate?
    /// `REFUND_FULL`, `REFUND_PRORATED` (a partial refund) or `FAMILY_REVOKE`.
    public var revocationType: String?
    /// A partial refund's share, in thousandths of a percent (50000 is 50 %).
    public var revocationPercentage: Int?
    public var isUpgraded: Bool?
    public var offerType: Int?
    public var offerIdentifier: String?
    public var environment: String?
    public var storefront: String?
    public var storefrontId: String?
    public var transactionReason: String?
    public var currency: String?
    public var price: Int64?
    public var appTransactionId: String?
    /// `MONTHLY` or `BILLED_UPFRONT` (API 1.21).
    public var billingPlanType: String?
    public var commitmentInfo: CommitmentInfo?

    /// `TransactionCommitmentInfo`: one payment of a plan billed monthly with a 12-month commitment.
    public struct CommitmentInfo: Sendable, Decodable, Equatable {
        public var billingPeriodNumber: Int?
        public var totalBillingPeriods: Int?
        public var commitmentExpiresDate: AppleDate?
        public var commitmentPrice: Int64?
    }
}

/// `JWSRenewalInfoDecodedPayload`: an auto-renewable subscription's renewal intent.
///
/// Each property is the payload's field of the same name, with the meaning Apple's App
/// Store Server API documentation gives the payload's field. Every field
/// is optional: Apple adds fields over the years and leaves out those that do not apply,
/// and a payload missing one still decodes. Dates are ``AppleDate`` (milliseconds).
public struct JWSRenewalInfo: Sendable, Decodable, Equatable {
    public var originalTransactionId: String?
    public var autoRenewProductId: String?
    public var productId: String?
    /// 1 = will renew, 0 = turned off.
    public var autoRenewStatus: Int?
    public var expirationIntent: Int?
    public var gracePeriodExpiresDate: AppleDate?
    public var isInBillingRetryPeriod: Bool?
    public var offerIdentifier: String?
    public var offerType: Int?
    public var priceIncreaseStatus: Int?
    public var signedDate: AppleDate?
    public var environment: String?
    public var recentSubscriptionStartDate: AppleDate?
    public var renewalDate: AppleDate?
    public var currency: String?
    public var renewalPrice: Int64?
    public var appAccountToken: String?
    public var appTransactionId: String?
    public var eligibleWinBackOfferIds: [String]?
    /// `MONTHLY` or `BILLED_UPFRONT` (API 1.21).
    public var renewalBillingPlanType: String?
    public var commitmentInfo: CommitmentInfo?

    /// `RenewalCommitmentInfo`: whether a commitment plan renews once its payments end.
    public struct CommitmentInfo: Sendable, Decodable, Equatable {
        public var commitmentAutoRenewProductId: String?
        /// 1 = a new commitment follows, 0 = it ends after its last payment.
        public var commitmentAutoRenewStatus: Int?
        public var commitmentRenewalBillingPlanType: String?
        public var commitmentRenewalDate: AppleDate?
        public var commitmentRenewalPrice: Int64?
    }
}

/// `AppTransaction`: the app-level purchase (StoreKit 2's replacement for the app receipt).
///
/// Each property is the payload's field of the same name, with the meaning Apple's App
/// Store Server API documentation gives the payload's field. Every field
/// is optional: Apple adds fields over the years and leaves out those that do not apply,
/// and a payload missing one still decodes. Dates are ``AppleDate`` (milliseconds).
public struct JWSAppTransaction: Sendable, Decodable, Equatable {
    public var receiptType: String?
    public var appAppleId: Int64?
    public var bundleId: String?
    public var applicationVersion: String?
    public var versionExternalIdentifier: Int64?
    public var receiptCreationDate: AppleDate?
    public var originalPurchaseDate: AppleDate?
    public var originalApplicationVersion: String?
    public var deviceVerification: String?
    public var deviceVerificationNonce: String?
    public var preorderDate: AppleDate?
    public var appTransactionId: String?
    public var originalPlatform: String?
    public var signedDate: AppleDate?
}

/// `ResponseBodyV2DecodedPayload`: an App Store Server Notification V2. The transaction
/// and renewal info inside are JWS of their own.
public struct ServerNotification: Sendable, Decodable, Equatable {
    public var notificationType: String?
    public var subtype: String?
    public var notificationUUID: String?
    public var version: String?
    public var signedDate: AppleDate?
    public var data: NotificationData?
    public var summary: Summary?
    /// RESCIND_CONSENT's: about the app, with no purchase in it.
    public var appData: AppData?
    /// EXTERNAL_PURCHASE_TOKEN's: a purchase made outside the App Store, its app named inside.
    public var externalPurchaseToken: ExternalPurchaseToken?

    public struct ExternalPurchaseToken: Sendable, Decodable, Equatable {
        public var externalPurchaseId: String?
        public var tokenCreationDate: AppleDate?
        public var appAppleId: Int64?
        public var bundleId: String?
        /// `ACQUISITION` or `SERVICES`.
        public var tokenType: String?
        public var tokenExpirationDate: AppleDate?
    }

    public struct AppData: Sendable, Decodable, Equatable {
        public var appAppleId: Int64?
        public var bundleId: String?
        public var environment: String?
        public var signedAppTransactionInfo: String?
    }

    public struct NotificationData: Sendable, Decodable, Equatable {
        public var appAppleId: Int64?
        public var bundleId: String?
        public var bundleVersion: String?
        public var environment: String?
        public var signedTransactionInfo: String?
        public var signedRenewalInfo: String?
        public var status: Int?
        public var consumptionRequestReason: String?
    }

    public struct Summary: Sendable, Decodable, Equatable {
        public var requestIdentifier: String?
        public var environment: String?
        public var appAppleId: Int64?
        public var bundleId: String?
        public var productId: String?
        public var succeededCount: Int64?
        public var failedCount: Int64?
    }
}

/// The kind of product a signed transaction names in its `type`.
public enum AppleProductType: String, Sendable {
    case autoRenewable = "Auto-Renewable Subscription"
    case nonConsumable = "Non-Consumable"
    case consumable = "Consumable"
    case nonRenewing = "Non-Renewing Subscription"
}

extension JWSTransaction {
    /// The product's kind; nil when Apple named none or one this code does not know.
    public var productType: AppleProductType? { type.flatMap(AppleProductType.init(rawValue:)) }
}
