/// Stored records the detail screens show. Plain values, decoded from rows.

/// A transaction as the store keeps it: Apple's facts, where they came from, and which order
/// claimed the purchase (R7).
public struct StoredTransaction: Sendable, Equatable {
    /// Apple's facts about the purchase, as last reported.
    public var transaction: AppleTransaction
    /// Production or sandbox, as the answer that reported it said; nil when unknown.
    public var environment: AppleEnvironment?
    /// The order that claimed it; nil for an orphan.
    public var orderId: String?
    /// The account that submitted the receipt that claimed it.
    public var submittedBy: String?
    /// When any answer from Apple first reported it.
    public var firstSeenAt: Millis
    /// When Apple was told the purchase is finished (delivered: Finish Transaction); nil
    /// until then.
    public var finishedAt: Millis?

    /// Every field, for a screen or a report built from values (a test, a preview).
    public init(
        transaction: AppleTransaction, environment: AppleEnvironment? = nil, orderId: String? = nil, submittedBy: String? = nil, firstSeenAt: Millis,
        finishedAt: Millis? = nil
    ) {
        self.transaction = transaction
        self.environment = environment
        self.orderId = orderId
        self.submittedBy = submittedBy
        self.firstSeenAt = firstSeenAt
        self.finishedAt = finishedAt
    }
}

/// A receipt as a game client or server sent it (R1: stored before anything else happens).
public struct Submission: Sendable, Equatable {
    /// The store's id for the submission, named in the intake API's answer.
    public var id: Int64
    /// The order it was sent for; nil for a receipt sent without one.
    public var orderId: String?
    /// The game account that sent it.
    public var accountId: String
    /// The transaction id the client said the receipt pays for; the store checks it (R6).
    public var claimedTransactionId: String?
    /// Who sent it: a game server, a notification, an operator.
    public var source: SubmissionSource
    /// The receipt exactly as received (base64 PKCS#7, a JWS, a Google Play purchase); kept
    /// for re-verification.
    public var receiptData: String
    /// What `receiptData` is, as the intake learned it.
    public var kind: EvidenceKind
    public var receivedAt: Millis

    /// Every field, for a screen or a report built from values (a test, a preview).
    public init(
        id: Int64, orderId: String? = nil, accountId: String, claimedTransactionId: String? = nil, source: SubmissionSource, receiptData: String,
        kind: EvidenceKind = .appReceipt, receivedAt: Millis
    ) {
        self.kind = kind
        self.id = id
        self.orderId = orderId
        self.accountId = accountId
        self.claimedTransactionId = claimedTransactionId
        self.source = source
        self.receiptData = receiptData
        self.receivedAt = receivedAt
    }
}

/// One call to Apple about an order and what came of it: the timeline's raw material.
public struct VerificationAttempt: Sendable, Equatable {
    public var id: Int64
    /// When the call was made.
    public var at: Millis
    /// verifyReceipt or the App Store Server API.
    public var method: VerificationMethod
    /// The environment that answered; nil when nothing did.
    public var environment: AppleEnvironment?
    /// Valid, final (rejected), or retryable (R3, R4).
    public var outcome: AttemptOutcome
    /// Apple's `status` field; nil when Apple did not answer or the API has none.
    public var appleStatus: Int?
    /// Apple's meaning of the status (R3), for display.
    public var statusMeaning: String? { appleStatus.map(StatusCodeRule.meaning(of:)) }
    /// The HTTP status of the answer; nil when the call got none (time-out, refused).
    public var httpStatus: Int?
    /// How long Apple took, or how long the store waited before giving up.
    public var latencyMs: Int
    /// Why the attempt did not succeed; nil for a valid answer.
    public var why: Why?
    /// Apple's answer as received, for the receipt screen and `order show --json`.
    public var body: String?
    /// What the store decided from this answer; nil for attempts from before verdicts were kept.
    public var verdict: StoredVerdict?

    /// Every field, for a screen or a report built from values (a test, a preview).
    public init(
        id: Int64, at: Millis, method: VerificationMethod, environment: AppleEnvironment? = nil, outcome: AttemptOutcome, appleStatus: Int? = nil,
        httpStatus: Int? = nil, latencyMs: Int, why: Why? = nil, body: String? = nil, verdict: StoredVerdict? = nil
    ) {
        self.id = id
        self.at = at
        self.method = method
        self.environment = environment
        self.outcome = outcome
        self.appleStatus = appleStatus
        self.httpStatus = httpStatus
        self.latencyMs = latencyMs
        self.why = why
        self.body = body
        self.verdict = verdict
    }
}

/// A delivery of what an order bought to its account (R11: at most one live grant per order,
/// by a unique index), and its revocation if there was one.
public struct Grant: Sendable, Equatable {
    public var id: Int64
    public var orderId: String
    /// The account that received the goods.
    public var accountId: String
    /// The purchase the grant delivers; nil for a manual grant made without one.
    public var transactionId: String?
    /// Automatic (after Apple's answer) or manual (an operator, with a reason).
    public var kind: GrantKind
    /// `system` for automatic grants, otherwise the operator who granted.
    public var operatorName: String
    /// The operator's reason for a manual grant.
    public var reason: String?
    public var grantedAt: Millis
    /// When the grant was taken back (a refund, an operator); nil while it stands.
    public var revokedAt: Millis?
    public var revokedBy: String?
    /// The operator's words when an operator took it back.
    public var revokeReason: String?
    /// The store's decision when a store took it back (a refund, a revoke).
    public var revokeWhy: Why?

    /// Every field, for a screen or a report built from values (a test, a preview).
    public init(
        id: Int64, orderId: String, accountId: String, transactionId: String? = nil, kind: GrantKind, operatorName: String, reason: String? = nil,
        grantedAt: Millis, revokedAt: Millis? = nil, revokedBy: String? = nil, revokeReason: String? = nil, revokeWhy: Why? = nil
    ) {
        self.id = id
        self.orderId = orderId
        self.accountId = accountId
        self.transactionId = transactionId
        self.kind = kind
        self.operatorName = operatorName
        self.reason = reason
        self.grantedAt = grantedAt
        self.revokedAt = revokedAt
        self.revokedBy = revokedBy
        self.revokeReason = revokeReason
        self.revokeWhy = revokeWhy
    }
}

/// An auto-renewable subscription, keyed by its original transaction id, and the game
/// account that owns it (R8 decides when one Apple ID played several accounts).
public struct Subscription: Sendable, Equatable {
    /// The id every renewal of the subscription shares.
    public var originalTransactionId: String
    /// The game account the subscription's benefits go to; nil while no order holds it
    /// (Apple's notifications arrived first: its facts are kept, its owner unknown).
    public var ownerAccount: String?
    public var productId: String
    /// Active, expired, in a billing retry, revoked… as Apple last said.
    public var status: SubscriptionStatus
    /// Whether the subscriber means to renew (Apple's renewal intent); R8 reads it.
    public var autoRenew: Bool
    /// The end of the latest period the store knows of.
    public var expiresAt: Millis?
    /// When the current owner became owner.
    public var ownerSince: Millis
    /// The rule, Apple (no owner yet), or the operator who settled a dispute.
    public var decidedBy: Decider
    /// When Apple last told us the status and renewal intent, and through what.
    public var factsAsOf: Millis?
    /// A verification, a notification or the expiry poll.
    public var factsSource: FactSource?
    /// The rest of Apple's renewal info, as of `factsAsOf`.
    public var renewal: RenewalFacts
    /// The store it is sold in (a Google Play subscription's id is its first order, `GPA.…`).
    public var marketplace: Marketplace

    /// Every field, for a screen or a report built from values (a test, a preview).
    public init(
        originalTransactionId: String, ownerAccount: String? = nil, productId: String, status: SubscriptionStatus, autoRenew: Bool, expiresAt: Millis? = nil,
        ownerSince: Millis, decidedBy: Decider, factsAsOf: Millis? = nil, factsSource: FactSource? = nil, renewal: RenewalFacts = RenewalFacts(),
        marketplace: Marketplace = .appStore
    ) {
        self.renewal = renewal
        self.marketplace = marketplace
        self.originalTransactionId = originalTransactionId
        self.ownerAccount = ownerAccount
        self.productId = productId
        self.status = status
        self.autoRenew = autoRenew
        self.expiresAt = expiresAt
        self.ownerSince = ownerSince
        self.decidedBy = decidedBy
        self.factsAsOf = factsAsOf
        self.factsSource = factsSource
    }
}

/// An R8 decision waiting for an operator, with the store its subscription is sold in.
public struct Dispute: Sendable, Equatable {
    public var event: OwnershipEvent
    public var marketplace: Marketplace

    public init(event: OwnershipEvent, marketplace: Marketplace) {
        self.event = event
        self.marketplace = marketplace
    }
}

/// One decision about who owns a subscription (R8): by the rule when a receipt arrived, or
/// by an operator settling a dispute.
public struct OwnershipEvent: Sendable, Equatable {
    public var id: Int64
    public var originalTransactionId: String
    /// The order whose receipt raised the question; nil for an operator's transfer.
    public var orderId: String?
    /// The account that submitted the subscription's receipt.
    public var submittedBy: String
    /// The owner before the decision; nil when there was none.
    public var fromAccount: String?
    /// The owner after the decision.
    public var toAccount: String
    public var at: Millis
    /// The rule, or the operator who decided.
    public var decidedBy: Decider
    public var verdict: OwnershipVerdict
    /// The operator's words for a move by hand (and, for events from before decisions were
    /// kept, the rule's decision in words).
    public var reason: String
    /// The rule's decision, for events the rule decided (from migration 31).
    public var decision: OwnershipRule.Decision?
    /// True while a dispute waits for an operator (the disputes queue).
    public var needsReview: Bool

    /// Every field, for a screen or a report built from values (a test, a preview).
    public init(
        id: Int64, originalTransactionId: String, orderId: String? = nil, submittedBy: String, fromAccount: String? = nil, toAccount: String, at: Millis,
        decidedBy: Decider, verdict: OwnershipVerdict, reason: String, decision: OwnershipRule.Decision? = nil, needsReview: Bool
    ) {
        self.decision = decision
        self.id = id
        self.originalTransactionId = originalTransactionId
        self.orderId = orderId
        self.submittedBy = submittedBy
        self.fromAccount = fromAccount
        self.toAccount = toAccount
        self.at = at
        self.decidedBy = decidedBy
        self.verdict = verdict
        self.reason = reason
        self.needsReview = needsReview
    }
}

/// One entry of the append-only audit log (R10), chained to the one before by its hash.
public struct AuditEntry: Sendable, Equatable {
    /// The entry's place in the log, from 1 with no gaps.
    public var seq: Int64
    public var at: Millis
    /// `system`, or the operator who acted.
    public var actor: String
    /// The actor's role then (`rule` for the store's own decisions).
    public var role: AuditRole
    /// What was done: `grant`, `refund`, `verify.replay`, `ownership.transfer`…
    public var action: AuditAction
    /// What it was done to: an order, a subscription, a product…
    public var target: AuditTarget
    /// The operator's reason, where the action asks for one.
    public var reason: String?
    /// A rule's decision: its reason and particulars (entries from migration 31 on).
    public var why: Why?
    /// What changed: the order's move (`verify_retry → delivered`) and the act's particulars.
    public var detail: AuditDetail
    /// The grant rows this entry records (a delivery's one, a seed's range); nil for entries
    /// that record none and for entries written before migration 23.
    public var grants: ClosedRange<Int64>?
    /// SHA-256 over the previous entry's hash and this entry's fields.
    public var hash: String

    /// Every field, for a screen or a report built from values (a test, a preview).
    public init(
        seq: Int64, at: Millis, actor: String, role: AuditRole, action: AuditAction, target: AuditTarget, reason: String? = nil, detail: AuditDetail,
        grants: ClosedRange<Int64>? = nil, hash: String, why: Why? = nil
    ) {
        self.why = why
        self.seq = seq
        self.at = at
        self.actor = actor
        self.role = role
        self.action = action
        self.target = target
        self.reason = reason
        self.detail = detail
        self.grants = grants
        self.hash = hash
    }
}

/// A mark on a game account for support to see, such as `replay` when it sent a receipt
/// another order had already claimed (R7).
public struct AccountFlag: Sendable, Equatable {
    public var accountId: String
    public var flag: AccountFlagKind
    /// The order that raised it.
    public var orderId: String?
    /// What happened, in words, for flags raised before decisions were kept (migration 31).
    public var detail: String
    /// The decision that raised it (the replay's holder, the other delivery).
    public var why: Why?
    public var at: Millis

    /// Every field, for a screen or a report built from values (a test, a preview).
    public init(accountId: String, flag: AccountFlagKind, orderId: String? = nil, detail: String = "", why: Why? = nil, at: Millis) {
        self.why = why
        self.accountId = accountId
        self.flag = flag
        self.orderId = orderId
        self.detail = detail
        self.at = at
    }
}
