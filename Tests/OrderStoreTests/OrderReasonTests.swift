import OrderDomain
import Testing

@testable import OrderStore

@Suite("Reason codes")
struct OrderReasonTests {
    static let samples: [OrderReason] =
        Marketplace.allCases.flatMap { store -> [OrderReason] in
            [
                .storeUnreachable(store), .storeServerError(store, http: 503), .storeRateLimited(store), .storeAnswerUnreadable(store),
                .storeAnswerUnexpected(store, http: 418), .credentialsRefused(store), .refunded(store), .storeNotConfigured(store),
            ]
        }
        + [
            .appleStatus(21010), .environmentUnsettled(21007), .sharedSecretRejected, .sharedSecretMissing, .requestUnreadable,
            .appleNotRetryable(21150), .undocumentedStatus(21777), .serverAPIRefused(4_040_010), .validWithoutContent, .noTransactionForOrder,
            .replay, .doubleDelivery, .ownershipDisputed, .disputeSettled, .googleUnknownPurchase(http: 410), .googlePending,
            .googleCancelledBeforePayment, .googleAcknowledgementDue, .familySharingRevoked, .revokedByOperator, .unclassified,
        ] + ReceiptCheck.Name.allCases.map(OrderReason.checkFailed)

    @Test("Every reason's stored code reads back as the same reason, and no two reasons share a code")
    func codesRoundTrip() {
        for reason in Self.samples { #expect(OrderReason(code: reason.code) == reason, "\(reason.code)") }
        #expect(Set(Self.samples.map(\.code)).count == Self.samples.count)
    }

    @Test("A code this version does not know, or a number where none belongs, reads as no reason")
    func unknownCodes() {
        for code in ["", "apple", "apple.status.", "apple.status.x", "r5.nonsense", "apple.shared_secret_rejected.1", "google.pending.2"] {
            #expect(OrderReason(code: code) == nil, "\(code)")
        }
    }
}
