import OrderDomain
import Testing

@testable import Presentation

/// The store keeps a decision's reason as a code and facts; these are the sentences the
/// console, the CLI, the logs and the game server's `last_error` read, said in one place.
@Suite("Presentation: a reason and its particulars in one sentence")
struct ReasonSentenceTests {
    static let holder = PurchaseHolder(order: "o1", account: "a1", key: "tid:500")

    @Test("Each reason with its facts reads as the sentence support knows")
    func sentences() {
        let cases: [(Why, String)] = [
            (Why(.replay, ReasonParticulars(holder: Self.holder)), "replay: tid:500 already claimed by order o1 of account a1"),
            (Why(.storeUnreachable(.appStore), ReasonParticulars(message: "timed out after 30 s")), "no answer from Apple: timed out after 30 s"),
            (Why(.storeServerError(.googlePlay, http: 503), ReasonParticulars(message: "backendError")), "Google HTTP 503 backendError"),
            (Why(.appleStatus(21010)), "21010 user account not found or deleted"),
            (Why(.credentialsRefused(.appStore), ReasonParticulars(http: 401)), "Apple refused iapdesk's credentials (HTTP 401)"),
            (
                Why(
                    .checkFailed(.bundleId),
                    ReasonParticulars(check: ReceiptCheck(name: .bundleId, passed: false, evidence: .differs(found: "com.x", expected: "com.y")))),
                "check failed: bundle id: com.x ≠ com.y (re-signed app?)"
            ),
            (Why(.refunded(.googlePlay), ReasonParticulars(transactionId: "GPA.1")), "Google refunded transaction GPA.1"),
            (Why(.revokedByOperator, ReasonParticulars(actor: "lin", note: "fraud")), "delivery revoked by lin: fraud"),
            (Why(.ownershipDisputed, ReasonParticulars(ownership: .ownerKeeps(owner: "A"))), "owner A is still auto-renewing, so the renewal is theirs"),
            (Why(.appleStatus(21010), ReasonParticulars(words: "kept from before")), "kept from before"),
        ]
        for (why, sentence) in cases { #expect(ReasonWords.sentence(why) == sentence) }
    }

    @Test("Said of a hand delivery, each reason says what Apple does not confirm; a double delivery names both orders")
    func handDelivery() {
        #expect(ReasonWords.sentence(Why(.noTransactionForOrder).ofHandDelivery("o2")) == "Apple's answer holds no transaction for this hand delivery yet")
        #expect(
            ReasonWords.sentence(Why(.appleStatus(21010)).ofHandDelivery("o2"))
                == "Apple does not confirm this hand delivery: 21010 user account not found or deleted")
        #expect(
            ReasonWords.sentence(Why(.doubleDelivery, ReasonParticulars(holder: Self.holder, handDelivery: "o2")))
                == "two deliveries for one purchase: tid:500 paid for order o1 (account a1) and was delivered by hand to order o2")
        #expect(
            ReasonWords.sentence(Why(.ownershipDisputed, ReasonParticulars(ownership: .ownerKeeps(owner: "A"), handDelivery: "o2")))
                == "delivered by hand, but R8 gives this renewal to A")
    }

    @Test("Every reason says something even with no facts kept")
    func everyReasonSaid() {
        let reasons: [OrderReason] =
            Marketplace.allCases.flatMap { store in
                [
                    OrderReason.storeUnreachable(store), .storeServerError(store, http: 500), .storeRateLimited(store), .storeAnswerUnreadable(store),
                    .storeAnswerUnexpected(store, http: 418), .credentialsRefused(store), .refunded(store), .storeNotConfigured(store),
                ]
            } + [
                .appleStatus(21005), .environmentUnsettled(21007), .sharedSecretRejected, .sharedSecretMissing, .requestUnreadable, .appleNotRetryable(21150),
                .undocumentedStatus(21777), .serverAPIRefused(4_040_010), .validWithoutContent, .noTransactionForOrder, .replay, .doubleDelivery,
                .ownershipDisputed, .disputeSettled, .googleUnknownPurchase(http: 404), .googlePending, .googleCancelledBeforePayment,
                .googleAcknowledgementDue, .familySharingRevoked, .revokedByOperator, .unclassified,
            ] + ReceiptCheck.Name.allCases.map(OrderReason.checkFailed)
        for reason in reasons {
            let said = ReasonWords.sentence(Why(reason))
            #expect(!said.isEmpty && !said.hasSuffix(": ") && !said.contains("nil"), "\(reason.code): \(said)")
        }
    }
}
