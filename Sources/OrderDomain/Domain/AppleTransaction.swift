/// One transaction as Apple reports it (a row of `in_app` / `latest_receipt_info`, or a
/// decoded JWS transaction). Ids stay strings: Apple's are numeric strings of up to 16
/// digits and must round-trip exactly.
public struct AppleTransaction: Sendable, Equatable, Codable, Hashable {
    /// Apple's id for this purchase (or this period of a subscription).
    public var transactionId: String
    /// The first transaction of the purchase: equal to `transactionId` except for a
    /// subscription's renewals and restores.
    public var originalTransactionId: String
    public var productId: String
    public var quantity: Int
    /// When Apple charged the player (for a renewal, when the period began).
    public var purchaseDate: Millis
    public var originalPurchaseDate: Millis?
    /// The end of a subscription period; nil for other products.
    public var expiresDate: Millis?
    /// Set when Apple refunded or revoked the purchase (R9).
    public var cancellationDate: Millis?
    /// Apple's reason for a refund: 1 an issue in the app, 0 anything else.
    public var cancellationReason: Int?
    /// Apple's id for one period of a subscription across devices and restores; a claim
    /// key (R7) so a period is delivered once.
    public var webOrderLineItemId: String?
    /// `PURCHASED` or `FAMILY_SHARED`.
    public var ownershipType: String?
    /// The `appAccountToken` / `applicationUsername` the app sent: our order id.
    public var appAccountToken: String?
    /// `is_upgraded`: the period ended because the player moved to a higher level. Its
    /// `cancellation_date` marks the upgrade, not a refund (R9).
    public var isUpgraded: Bool
    /// A partial refund (`REFUND_PRORATED`): the share Apple refunded, in thousandths of a
    /// percent (50000 is 50 %). Nil for a full refund and for purchases not refunded.
    public var refundedShare: Int?
    /// Apple's id for the app as one Apple Account downloaded it (JWS only): the same for
    /// every purchase of that Apple Account in this app, across reinstalls and devices.
    public var appTransactionId: String?
    /// The App Store country the purchase was made in (ISO 3166-1 alpha-3, `USA`; JWS only).
    public var storefront: String?
    /// The offer the purchase was bought with (an offer code, for one-time products too).
    public var offer: AppleOffer?
    /// `MONTHLY` for a payment of a commitment plan, `BILLED_UPFRONT` otherwise; nil when
    /// Apple names none (JWS only).
    public var billingPlan: String?
    /// Where a commitment plan's payment stands (JWS only).
    public var commitment: Commitment?
    /// Google Play only: the purchase token this order (`GPA.…`) was paid under.
    public var purchaseToken: String?

    /// The store it was paid in: Google Play's purchases are paid under a purchase token.
    public var marketplace: Marketplace { purchaseToken == nil ? .appStore : .googlePlay }

    public init(
        transactionId: String, originalTransactionId: String, productId: String, quantity: Int = 1,
        purchaseDate: Millis, originalPurchaseDate: Millis? = nil, expiresDate: Millis? = nil,
        cancellationDate: Millis? = nil, cancellationReason: Int? = nil, webOrderLineItemId: String? = nil,
        ownershipType: String? = "PURCHASED", appAccountToken: String? = nil, isUpgraded: Bool = false
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
        self.isUpgraded = isUpgraded
    }

    /// Whether Apple refunded only part of the purchase (a pack's share: for a subscription
    /// a prorated refund ends it like any other).
    public var isPartlyRefunded: Bool { cancellationDate != nil && (refundedShare ?? 100_000) < 100_000 }

    /// A later period of an auto-renewable subscription: Apple bought it, not the player
    /// at the order's moment, so it predates the order that submits it (R5) and R8 says
    /// whose it is.
    public var isRenewal: Bool { transactionId != originalTransactionId }
}

/// An offer a purchase was bought with: Apple's `offerType` and `offerIdentifier`.
public struct AppleOffer: Sendable, Equatable, Codable, Hashable {
    /// 1 introductory, 2 promotional, 3 offer code (one-time products too), 4 win-back.
    public var type: Int
    /// The offer's reference name (an offer code's, a promotional offer's); nil for an
    /// introductory offer.
    public var identifier: String?

    public init(type: Int, identifier: String?) {
        self.type = type
        self.identifier = identifier
    }
}

/// One payment of a subscription bought monthly with a 12-month commitment
/// (`TransactionCommitmentInfo`): payment `payment` of `payments`, committed until `endsAt`.
public struct Commitment: Sendable, Equatable, Codable, Hashable {
    public var payment: Int?
    public var payments: Int?
    public var endsAt: Millis?

    public init(payment: Int?, payments: Int?, endsAt: Millis?) {
        self.payment = payment
        self.payments = payments
        self.endsAt = endsAt
    }
}

/// Apple's renewal intent for one auto-renewable subscription (`pending_renewal_info`,
/// or the renewal info JWS): does it still renew?
public struct AppleRenewalInfo: Sendable, Equatable, Codable {
    public var originalTransactionId: String
    /// The product the subscription renews into (may differ after an up- or downgrade).
    public var productId: String
    /// Whether the player leaves the subscription on: R8 reads it.
    public var autoRenewEnabled: Bool
    /// Why the subscription lapsed (Apple's codes: 1 cancelled by the player, 2 billing
    /// error, 3 declined a price increase, 4 product unavailable, 5 other).
    public var expirationIntent: Int?
    /// Apple is still trying to charge the player after a failed renewal.
    public var isInBillingRetry: Bool
    /// The player keeps access until then while Apple retries the charge.
    public var gracePeriodExpiresDate: Millis?
    /// A price increase: 0 waiting for the subscriber's consent, 1 accepted; nil: none.
    public var priceIncreaseStatus: Int?
    /// How the next period is billed (`renewalBillingPlanType`): `MONTHLY` for a commitment
    /// plan's monthly payments.
    public var billingPlan: String?
    /// A commitment plan's renewal (`RenewalCommitmentInfo`).
    public var commitment: RenewalCommitment?
    /// The win-back offers Apple says the subscriber may redeem (`eligibleWinBackOfferIds`).
    public var winBackOfferIds: [String]?

    public init(
        originalTransactionId: String, productId: String, autoRenewEnabled: Bool, expirationIntent: Int? = nil,
        isInBillingRetry: Bool = false, gracePeriodExpiresDate: Millis? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.autoRenewEnabled = autoRenewEnabled
        self.expirationIntent = expirationIntent
        self.isInBillingRetry = isInBillingRetry
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
    }
}

/// Whether a commitment plan renews when its committed payments end
/// (`RenewalCommitmentInfo`). A subscriber who cancels during the commitment keeps paying
/// until its last payment: `renews` turns false, and renewal stops after it.
public struct RenewalCommitment: Sendable, Equatable, Codable, Hashable {
    /// `commitmentAutoRenewStatus`: whether a new commitment follows this one.
    public var renews: Bool?
    /// `commitmentRenewalDate`: when this commitment ends and the next would start.
    public var renewsAt: Millis?
    /// `commitmentAutoRenewProductId`: the product the next commitment would be.
    public var renewsTo: String?

    public init(renews: Bool?, renewsAt: Millis?, renewsTo: String?) {
        self.renews = renews
        self.renewsAt = renewsAt
        self.renewsTo = renewsTo
    }
}
