import Testing

@testable import OrderStore

@Suite("Audit actions")
struct AuditActionTests {
    static let all: [AuditAction] =
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

    @Test("Each action has a spelling of its own, and the spellings older logs hold are kept")
    func spellings() {
        #expect(Set(Self.all.map(\.rawValue)).count == Self.all.count, "two actions share a spelling")
        #expect(AuditAction.verifyRejected.rawValue == "verify.rejected" && AuditAction.grant.rawValue == "grant")
        #expect(AuditAction.cancellationUnclaimed(.revoke).rawValue == "revoke.unclaimed")
        #expect(AuditAction.seed.rawValue == SeedAuditEntry.action)
    }
}
