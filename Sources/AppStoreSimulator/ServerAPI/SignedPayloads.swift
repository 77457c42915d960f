import Foundation

/// `JWSTransactionDecodedPayload` as the simulator signs it: Apple's field names, dates in
/// milliseconds since 1970, prices in milliunits.
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
    var quantity: Int
    var type: String
    var appAccountToken: String?
    var inAppOwnershipType: String
    var signedDate: Int64
    var revocationReason: Int?
    var revocationDate: Int64?
    var revocationType: String?
    var revocationPercentage: Int?
    var isUpgraded: Bool?
    var offerType: Int?
    var offerIdentifier: String?
    var environment: String
    var transactionReason: String
    var storefront = "CHN"
    var storefrontId = "143465"
    var currency: String
    var price: Int64
    var appTransactionId: String
    var billingPlanType: String?
    var commitmentInfo: CommitmentInfo?

    /// `TransactionCommitmentInfo` of a commitment plan's payment.
    struct CommitmentInfo: Encodable {
        var billingPeriodNumber: Int
        var totalBillingPeriods: Int
        var commitmentExpiresDate: Int64?
        var commitmentPrice: Int64
    }

    init(_ p: SimulatedPurchase, bundleId: String, group: String?, signedAt: Date) {
        transactionId = p.transactionId
        originalTransactionId = p.originalTransactionId
        webOrderLineItemId = p.webOrderLineItemId.map(String.init)
        self.bundleId = bundleId
        productId = p.productId
        subscriptionGroupIdentifier = p.kind == .autoRenewable ? group ?? SimulatedProduct.defaultGroup : nil
        purchaseDate = p.purchaseDate.milliseconds
        originalPurchaseDate = (p.originalPurchaseDate ?? p.purchaseDate).milliseconds
        expiresDate = p.kind == .autoRenewable ? p.expiresDate?.milliseconds : nil
        quantity = p.quantity ?? 1
        type = p.kind.serverAPIName
        appAccountToken = p.appAccountToken
        inAppOwnershipType = p.familyShared == true ? "FAMILY_SHARED" : "PURCHASED"
        signedDate = signedAt.milliseconds
        revocationReason = p.cancellationReason
        revocationDate = p.cancellationDate?.milliseconds
        revocationType = p.revocationType
        revocationPercentage = p.cancellationDate == nil ? nil : p.revocationPercentage
        isUpgraded = p.isUpgraded
        offerType = p.offerType
        offerIdentifier = p.offerIdentifier
        environment = p.isSandbox ? "Sandbox" : "Production"
        transactionReason = p.transactionId == p.originalTransactionId || p.kind != .autoRenewable || p.offerType != nil ? "PURCHASE" : "RENEWAL"
        currency = p.currency ?? "CNY"
        price = p.priceMilli ?? 6_000
        appTransactionId = p.appTransactionId
        if let payment = p.commitmentPayment, let payments = p.commitmentPayments {
            billingPlanType = "MONTHLY"
            commitmentInfo = CommitmentInfo(
                billingPeriodNumber: payment, totalBillingPeriods: payments, commitmentExpiresDate: p.commitmentEnd?.milliseconds,
                commitmentPrice: price * Int64(payments))
        } else if p.kind == .autoRenewable {
            billingPlanType = "BILLED_UPFRONT"
        }
    }
}

/// `JWSRenewalInfoDecodedPayload` of a subscription, from its latest period, all its
/// periods (oldest first) and the product it renews to.
struct RenewalPayload: Encodable {
    var originalTransactionId: String
    var autoRenewProductId: String
    var productId: String
    var autoRenewStatus: Int
    /// Only once the subscription has expired, as at Apple: 1 the customer cancelled,
    /// 2 a billing error, 3 no consent to a price increase.
    var expirationIntent: Int?
    var isInBillingRetryPeriod: Bool?
    var gracePeriodExpiresDate: Int64?
    var priceIncreaseStatus: Int?
    var offerType: Int?
    var offerIdentifier: String?
    var recentSubscriptionStartDate: Int64?
    var renewalDate: Int64?
    var currency: String
    var renewalPrice: Int64
    var appAccountToken: String?
    var appTransactionId: String
    var signedDate: Int64
    var environment: String
    var eligibleWinBackOfferIds: [String]?
    var renewalBillingPlanType: String?
    var commitmentInfo: CommitmentInfo?

    /// `RenewalCommitmentInfo`: whether a new commitment follows this one.
    struct CommitmentInfo: Encodable {
        var commitmentAutoRenewProductId: String
        var commitmentAutoRenewStatus: Int
        var commitmentRenewalBillingPlanType: String
        var commitmentRenewalDate: Int64?
        var commitmentRenewalPrice: Int64
    }

    init(latest: SimulatedPurchase, chain: [SimulatedPurchase], renewsTo product: SimulatedProduct?, signedAt: Date) {
        originalTransactionId = latest.originalTransactionId
        autoRenewProductId = latest.autoRenewProductId ?? latest.productId
        productId = latest.productId
        autoRenewStatus = latest.autoRenew ? 1 : 0
        let status = latest.subscriptionStatus(at: signedAt)
        if status == 2 {
            expirationIntent = latest.priceIncreaseStatus == 0 ? 3 : latest.inBillingRetry == true ? 2 : latest.autoRenew ? 5 : 1
            isInBillingRetryPeriod = false
        } else if latest.inBillingRetry == true {
            expirationIntent = 2
            isInBillingRetryPeriod = true
        }
        gracePeriodExpiresDate = latest.gracePeriodExpiresDate?.milliseconds
        priceIncreaseStatus = latest.priceIncreaseStatus
        offerType = latest.offerType
        offerIdentifier = latest.offerIdentifier
        recentSubscriptionStartDate = (Self.recentStart(chain) ?? latest.purchaseDate).milliseconds
        renewalDate = latest.expiresDate?.milliseconds
        currency = product?.currency ?? latest.currency ?? "CNY"
        renewalPrice = product?.priceMilli ?? latest.priceMilli ?? 6_000
        appAccountToken = latest.appAccountToken
        appTransactionId = latest.appTransactionId
        signedDate = signedAt.milliseconds
        environment = latest.isSandbox ? "Sandbox" : "Production"
        // A subscriber who left may come back with a win-back offer: Apple lists those
        // they may redeem once the subscription has expired.
        if status == 2, let offers = product?.winBackOffers, !offers.isEmpty { eligibleWinBackOfferIds = offers }
        if latest.isCommitment, let payments = latest.commitmentPayments {
            renewalBillingPlanType = "MONTHLY"
            commitmentInfo = CommitmentInfo(
                commitmentAutoRenewProductId: autoRenewProductId, commitmentAutoRenewStatus: latest.commitmentRenews == false ? 0 : 1,
                commitmentRenewalBillingPlanType: "MONTHLY", commitmentRenewalDate: latest.commitmentEnd?.milliseconds,
                commitmentRenewalPrice: renewalPrice * Int64(payments))
        } else {
            renewalBillingPlanType = "BILLED_UPFRONT"
        }
    }

    /// The start of the latest run of periods without a gap of more than 60 days between
    /// them (Apple's definition of `recentSubscriptionStartDate`).
    static func recentStart(_ chain: [SimulatedPurchase]) -> Date? {
        guard var start = chain.last?.purchaseDate else { return nil }
        for (earlier, later) in zip(chain.dropLast().reversed(), chain.reversed()) {
            guard let end = earlier.expiresDate, later.purchaseDate.timeIntervalSince(end) <= 60 * 86_400 else { break }
            start = earlier.purchaseDate
        }
        return start
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
