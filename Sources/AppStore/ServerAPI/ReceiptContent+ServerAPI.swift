import OrderDomain
import Receipts

extension AppleTransaction {
    /// A verified JWS transaction in the store's terms; nil without the ids rules key on.
    public init?(_ jws: JWSTransaction) {
        guard let id = jws.transactionId, let product = jws.productId, let purchased = jws.purchaseDate else { return nil }
        self.init(
            transactionId: id, originalTransactionId: jws.originalTransactionId ?? id, productId: product,
            quantity: jws.quantity ?? 1, purchaseDate: purchased.milliseconds, originalPurchaseDate: jws.originalPurchaseDate?.milliseconds,
            expiresDate: jws.expiresDate?.milliseconds, cancellationDate: jws.revocationDate?.milliseconds,
            cancellationReason: jws.revocationReason, webOrderLineItemId: jws.webOrderLineItemId,
            ownershipType: jws.inAppOwnershipType, appAccountToken: jws.appAccountToken, isUpgraded: jws.isUpgraded ?? false)
        if jws.revocationType == "REFUND_PRORATED" { refundedShare = jws.revocationPercentage }
        appTransactionId = jws.appTransactionId
        storefront = jws.storefront
        offer = jws.offerType.map { AppleOffer(type: $0, identifier: jws.offerIdentifier) }
        billingPlan = jws.billingPlanType
        commitment = jws.commitmentInfo.map {
            Commitment(payment: $0.billingPeriodNumber, payments: $0.totalBillingPeriods, endsAt: $0.commitmentExpiresDate?.milliseconds)
        }
    }
}

extension AppleRenewalInfo {
    public init?(_ jws: JWSRenewalInfo) {
        guard let original = jws.originalTransactionId else { return nil }
        self.init(
            originalTransactionId: original, productId: jws.autoRenewProductId ?? jws.productId ?? "",
            autoRenewEnabled: jws.autoRenewStatus == 1, expirationIntent: jws.expirationIntent,
            isInBillingRetry: jws.isInBillingRetryPeriod ?? false, gracePeriodExpiresDate: jws.gracePeriodExpiresDate?.milliseconds)
        priceIncreaseStatus = jws.priceIncreaseStatus
        billingPlan = jws.renewalBillingPlanType
        commitment = jws.commitmentInfo.map {
            RenewalCommitment(
                renews: $0.commitmentAutoRenewStatus.map { $0 == 1 }, renewsAt: $0.commitmentRenewalDate?.milliseconds,
                renewsTo: $0.commitmentAutoRenewProductId)
        }
        winBackOfferIds = jws.eligibleWinBackOfferIds
    }
}
