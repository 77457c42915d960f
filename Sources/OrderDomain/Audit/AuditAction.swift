/// What an audit entry records, as a value: every write that audits names one of these, so
/// no action is spelled twice and a reader of the log (`:audit`, `iapdesk audit`) can match
/// on it. Stored as ``rawValue`` ("verify.rejected", "grant", …), the spelling older entries
/// already have, and read back by it (``init(stored:)``), so entries of any version read back.
public enum AuditAction: Sendable, Hashable {
    // A delivery (R11) and its end.
    case deliver, grant, deliverRestore, refundReversed, grantConfirmed, grantUnconfirmed
    case refund, revoke, partialRefund, deliveryConflict
    // Verification (R2–R7).
    case receiptReceived, reverify, verifyValid, verifyRejected, verifyReplay, verifyRetry, verifyRetryable
    // A cancellation Apple or Google sent: nobody held the purchase, or nothing was delivered.
    case cancellationUnclaimed(Cancellation), cancellationIgnored(Cancellation), refundReversalUnclaimed, refundReversalIgnored
    // Subscriptions (R8).
    case ownership(OwnershipVerdict), ownershipDisputed, disputeUpheld
    case subscriptionFacts, subscriptionFactsIgnored, subscriptionRenewalStatus, subscriptionUnowned
    case subscriptionExtend, subscriptionExtendRefused, subscriptionExtendAll, subscriptionExtendAllRefused
    case subscriptionRebindToken, subscriptionRebindTokenRefused
    // Apple's and Google's other facts and actions.
    case notification(NotificationOutcome), notificationReplay, appleFinished, appleOrderLearned, backfill, backfillAppleAccount
    case refundRequestAnswered, refundRequestRefused
    case googleAttach, googleDeferred, googleRefund, googleRevoke, googleAcknowledged, googleConsumed
    // The desk's own records.
    case orphanAttach, orderImport, noteAdd, jobRequeue, eventResend, eventDead
    case productAdd, productUpdate, productUpsert, productRetire, appAdd, appUpdate, operatorSetRole, auditAnchor, seed
    /// Read back from an entry whose spelling this version does not know (written by another
    /// version of iapdesk); never written by this one.
    case unknown(String)

    /// The action as the log stores and shows it.
    public var rawValue: String {
        switch self {
        case .deliver: "deliver"
        case .grant: "grant"
        case .deliverRestore: "deliver.restore"
        case .refundReversed: "refund.reversed"
        case .grantConfirmed: "grant.confirmed"
        case .grantUnconfirmed: "grant.unconfirmed"
        case .refund: "refund"
        case .revoke: "revoke"
        case .partialRefund: "order.partial_refund"
        case .deliveryConflict: "delivery.conflict"
        case .receiptReceived: "receipt.received"
        case .reverify: "reverify"
        case .verifyValid: "verify.valid"
        case .verifyRejected: "verify.rejected"
        case .verifyReplay: "verify.replay"
        case .verifyRetry: "verify.retry"
        case .verifyRetryable: "verify.retryable"
        case .cancellationUnclaimed(let kind): "\(kind.rawValue).unclaimed"
        case .cancellationIgnored(let kind): "\(kind.rawValue).ignored"
        case .refundReversalUnclaimed: "refund_reversed.unclaimed"
        case .refundReversalIgnored: "refund_reversed.ignored"
        case .ownership(let verdict): "ownership.\(verdict.rawValue)"
        case .ownershipDisputed: "ownership.disputed"
        case .disputeUpheld: "dispute.upheld"
        case .subscriptionFacts: "subscription.facts"
        case .subscriptionFactsIgnored: "subscription.facts_ignored"
        case .subscriptionRenewalStatus: "subscription.renewal_status"
        case .subscriptionUnowned: "subscription.unowned"
        case .subscriptionExtend: "subscription.extend"
        case .subscriptionExtendRefused: "subscription.extend_refused"
        case .subscriptionExtendAll: "subscription.extend_all"
        case .subscriptionExtendAllRefused: "subscription.extend_all_refused"
        case .subscriptionRebindToken: "subscription.rebind_token"
        case .subscriptionRebindTokenRefused: "subscription.rebind_token_refused"
        case .notification(let outcome): "notification.\(outcome.rawValue)"
        case .notificationReplay: "notification.replay"
        case .appleFinished: "apple.finished"
        case .appleOrderLearned: "apple_order.learned"
        case .backfill: "backfill"
        case .backfillAppleAccount: "backfill.apple_account"
        case .refundRequestAnswered: "refund_request.answered"
        case .refundRequestRefused: "refund_request.refused"
        case .googleAttach: "google.attach"
        case .googleDeferred: "google.deferred"
        case .googleRefund: "google.refund"
        case .googleRevoke: "google.revoke"
        case .googleAcknowledged: "google.acknowledged"
        case .googleConsumed: "google.consumed"
        case .orphanAttach: "orphan.attach"
        case .orderImport: "order.import"
        case .noteAdd: "note.add"
        case .jobRequeue: "job.requeue"
        case .eventResend: "event.resend"
        case .eventDead: "event.dead"
        case .productAdd: "product.add"
        case .productUpdate: "product.update"
        case .productUpsert: "product.upsert"
        case .productRetire: "product.retire"
        case .appAdd: "app.add"
        case .appUpdate: "app.update"
        case .operatorSetRole: "operator.set_role"
        case .auditAnchor: "audit.anchor"
        case .seed: "seed"
        case .unknown(let spelling): spelling
        }
    }
}

extension AuditAction {
    /// Every action this version writes, each once.
    public static let known: [AuditAction] =
        [
            .deliver, .grant, .deliverRestore, .refundReversed, .grantConfirmed, .grantUnconfirmed, .refund, .revoke, .partialRefund,
            .deliveryConflict, .receiptReceived, .reverify, .verifyValid, .verifyRejected, .verifyReplay, .verifyRetry, .verifyRetryable,
            .refundReversalUnclaimed, .refundReversalIgnored, .ownershipDisputed, .disputeUpheld, .subscriptionFacts,
            .subscriptionFactsIgnored, .subscriptionRenewalStatus, .subscriptionUnowned, .subscriptionExtend, .subscriptionExtendRefused,
            .subscriptionExtendAll, .subscriptionExtendAllRefused, .subscriptionRebindToken, .subscriptionRebindTokenRefused, .notificationReplay,
            .appleFinished, .appleOrderLearned, .backfill, .backfillAppleAccount, .refundRequestAnswered, .refundRequestRefused, .googleAttach,
            .googleDeferred, .googleRefund, .googleRevoke, .googleAcknowledged, .googleConsumed, .orphanAttach, .orderImport, .noteAdd, .jobRequeue,
            .eventResend, .eventDead, .productAdd, .productUpdate, .productUpsert, .productRetire, .appAdd, .appUpdate, .operatorSetRole,
            .auditAnchor, .seed,
        ]
        + [Cancellation.refund, .revoke].flatMap { [AuditAction.cancellationUnclaimed($0), .cancellationIgnored($0)] }
        + OwnershipVerdict.allCases.map(AuditAction.ownership) + NotificationOutcome.allCases.map(AuditAction.notification)

    private static let bySpelling = Dictionary(known.map { ($0.rawValue, $0) }, uniquingKeysWith: { first, _ in first })

    /// The action an entry's stored spelling names; ``unknown(_:)`` for one this version does not write.
    public init(stored spelling: String) {
        self = Self.bySpelling[spelling] ?? .unknown(spelling)
    }
}
