/// Apple's latest word on how a subscription goes on, beyond whether it renews: kept whole
/// from the renewal info Apple signed last, so the desk shows what Apple shows.
public struct RenewalFacts: Sendable, Equatable {
    /// The product the next period is of (`autoRenewProductId`), when Apple names one.
    public var renewsTo: String?
    /// In a billing grace period: the player keeps access until then.
    public var graceUntil: Millis?
    /// Apple is still trying to charge a failed renewal.
    public var billingRetry: Bool
    /// A price increase: 0 waiting for the subscriber's consent, 1 accepted; nil: none.
    public var priceIncrease: Int?
    /// How the next period is billed: `MONTHLY` on a commitment plan, `BILLED_UPFRONT`.
    public var billingPlan: String?
    /// A commitment plan: whether a new commitment follows this one, and when it ends.
    public var commitment: RenewalCommitment?
    /// The win-back offers Apple says the subscriber may redeem.
    public var winBackOffers: [String]

    public init(
        renewsTo: String? = nil, graceUntil: Millis? = nil, billingRetry: Bool = false, priceIncrease: Int? = nil, billingPlan: String? = nil,
        commitment: RenewalCommitment? = nil, winBackOffers: [String] = []
    ) {
        self.renewsTo = renewsTo
        self.graceUntil = graceUntil
        self.billingRetry = billingRetry
        self.priceIncrease = priceIncrease
        self.billingPlan = billingPlan
        self.commitment = commitment
        self.winBackOffers = winBackOffers
    }

    /// What Apple's renewal info says.
    public init(_ renewal: AppleRenewalInfo) {
        self.init(
            renewsTo: renewal.productId.isEmpty ? nil : renewal.productId, graceUntil: renewal.gracePeriodExpiresDate,
            billingRetry: renewal.isInBillingRetry, priceIncrease: renewal.priceIncreaseStatus, billingPlan: renewal.billingPlan,
            commitment: renewal.commitment, winBackOffers: renewal.winBackOfferIds ?? [])
    }
}
