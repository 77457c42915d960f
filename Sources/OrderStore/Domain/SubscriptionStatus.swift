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

    init(_ method: VerificationMethod) {
        self = method == .serverAPI ? .serverAPI : .verifyReceipt
    }
}
