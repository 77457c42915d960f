/// Where an auto-renewable subscription stands, as Apple last told us (R8 weighs it).
public enum SubscriptionStatus: String, Sendable, CaseIterable, Codable {
    case active
    case expired
    /// A renewal charge failed and Apple keeps trying; the subscription still renews.
    case billingRetry = "billing_retry"
    /// Like billing retry, with access kept until the grace period ends.
    case gracePeriod = "grace_period"
    case refunded
    /// Family Sharing access withdrawn (REVOKE).
    case revoked

    /// Apple's `status` of a subscription (1 active, 2 expired, 3 billing retry, 4 billing
    /// grace period, 5 revoked) in the store's words: Apple's "revoked" is a refund, unless
    /// Family Sharing took the access back. Nil for a number Apple does not define.
    public init?(apple status: Int, familyRevoke: Bool) {
        switch status {
        case 1: self = .active
        case 2: self = .expired
        case 3: self = .billingRetry
        case 4: self = .gracePeriod
        case 5: self = familyRevoke ? .revoked : .refunded
        default: return nil
        }
    }

    /// The status a subscription's facts show at `now`: Apple's renewal intent, the
    /// latest period's end and whether that period was refunded.
    public static func from(renewal: AppleRenewalInfo?, periodEnd: Millis?, refunded: Bool, now: Millis) -> SubscriptionStatus {
        if refunded { return .refunded }
        if let renewal, let grace = renewal.gracePeriodExpiresDate, grace > now { return .gracePeriod }
        if renewal?.isInBillingRetry == true { return .billingRetry }
        if let periodEnd, periodEnd < now { return .expired }
        return .active
    }
}

/// Where a fact about a subscription came from, shown beside it in the console.
public enum FactSource: String, Sendable, Codable {
    case verifyReceipt = "verifyReceipt"
    case serverAPI = "Server API"
    case notification
    case `operator`
    case googlePlay = "Google Play"

    package init(_ method: VerificationMethod) {
        self =
            switch method {
            case .serverAPI: .serverAPI
            case .verifyReceipt: .verifyReceipt
            case .googlePlay: .googlePlay
            }
    }
}
