/// Stored records the detail screens show. Plain values, decoded from rows.

public struct StoredTransaction: Sendable, Equatable {
    public var transaction: AppleTransaction
    public var environment: AppleEnvironment?
    /// The order that claimed it; nil for an orphan.
    public var orderId: String?
    /// The account that submitted the receipt that claimed it.
    public var submittedBy: String?
    public var firstSeenAt: Millis
}

public struct Submission: Sendable, Equatable {
    public var id: Int64
    public var orderId: String?
    public var accountId: String
    public var claimedTransactionId: String?
    public var source: String
    public var receiptData: String
    public var receivedAt: Millis
}

public struct VerificationAttempt: Sendable, Equatable {
    public var id: Int64
    public var at: Millis
    public var method: VerificationMethod
    public var environment: AppleEnvironment?
    public var outcome: AttemptOutcome
    public var appleStatus: Int?
    /// Apple's meaning of the status (R3), for display.
    public var statusMeaning: String? { appleStatus.map(StatusCodeRule.meaning(of:)) }
    public var httpStatus: Int?
    public var latencyMs: Int
    public var reason: String?
    public var body: String?
    /// What the store decided from this answer; nil for attempts from before verdicts were kept.
    public var verdict: StoredVerdict?
}

public struct Grant: Sendable, Equatable {
    public var id: Int64
    public var orderId: String
    public var accountId: String
    public var transactionId: String?
    public var kind: GrantKind
    public var operatorName: String
    public var reason: String?
    public var grantedAt: Millis
    public var revokedAt: Millis?
    public var revokedBy: String?
    public var revokeReason: String?
}

public struct Subscription: Sendable, Equatable {
    public var originalTransactionId: String
    public var ownerAccount: String
    public var productId: String
    public var status: SubscriptionStatus
    public var autoRenew: Bool
    public var expiresAt: Millis?
    public var ownerSince: Millis
    public var decidedBy: String
    /// When Apple last told us the status and renewal intent, and through what.
    public var factsAsOf: Millis?
    public var factsSource: FactSource?
}

public struct OwnershipEvent: Sendable, Equatable {
    public var id: Int64
    public var originalTransactionId: String
    public var orderId: String?
    public var submittedBy: String
    public var fromAccount: String?
    public var toAccount: String
    public var at: Millis
    public var decidedBy: String
    public var verdict: OwnershipVerdict
    public var reason: String
    public var needsReview: Bool
}

public struct AuditEntry: Sendable, Equatable {
    public var seq: Int64
    public var at: Millis
    public var actor: String
    public var role: String
    public var action: String
    public var target: String
    public var reason: String?
    public var detail: String
    public var hash: String
}

public struct AccountFlag: Sendable, Equatable {
    public var accountId: String
    public var flag: String
    public var orderId: String?
    public var detail: String
    public var at: Millis
}
