/// Why an order waits, was turned down or left delivery, as a code: what alerts group by,
/// what a bulk re-verification selects by, and what Presentation says "what to do next"
/// from. The particulars (a holder order, a time, Google's own words) travel beside it as
/// ``ReasonParticulars``. Stored as ``code`` in the order's `reason_code` column.
public enum OrderReason: Sendable, Hashable, CustomStringConvertible {
    // The store gave no answer to go on (R3, R4): retried on the schedule.
    case storeUnreachable(Marketplace)
    case storeServerError(Marketplace, http: Int)
    case storeRateLimited(Marketplace)
    case storeAnswerUnreadable(Marketplace)
    /// An answer outside what the store documents (an HTTP status it never sends).
    case storeAnswerUnexpected(Marketplace, http: Int)
    /// A status Apple answered with; R3 decides whether it retries or is final.
    case appleStatus(Int)
    /// 21007/21008 as the final answer: R2's resend to the other environment did not settle.
    case environmentUnsettled(Int)

    // Our own setup, for an operator (the order waits, flagged).
    /// This process has no settings for the store the purchase was made in.
    case storeNotConfigured(Marketplace)
    /// Apple or Google refused iapdesk's own credentials (key, issuer, service account).
    case credentialsRefused(Marketplace)
    /// 21004: verifyReceipt rejects the shared secret.
    case sharedSecretRejected
    /// 21003 with no shared secret sent: subscriptions cannot be authenticated without it.
    case sharedSecretMissing
    /// 21000: verifyReceipt could not read iapdesk's request.
    case requestUnreadable
    /// 211xx with `is_retryable` false: Apple's own error, for a person to look at.
    case appleNotRetryable(Int)
    /// A status Apple never documented: it proves nothing about the purchase.
    case undocumentedStatus(Int)
    /// A Server API error that says our request or setup is wrong.
    case serverAPIRefused(Int)

    // The answer was valid, the order is not settled by it.
    case validWithoutContent
    /// R5: the answer holds no transaction for this order (finished consumables leave it).
    case noTransactionForOrder
    /// R5: a check proved the purchase does not pay for this order.
    case checkFailed(ReceiptCheck.Name)
    /// R7: the purchase was claimed by another order.
    case replay
    /// R7/R11: delivered by hand, and the purchase paid for another order.
    case doubleDelivery
    /// R8: the renewal belongs to another account.
    case ownershipDisputed
    /// R8: an operator settled the dispute for the owner.
    case disputeSettled

    // Google Play's answers that decide (R3 for Google).
    case googleUnknownPurchase(http: Int)
    case googlePending
    case googleCancelledBeforePayment
    /// Google refunds a purchase not acknowledged within three days (an alert before it).
    case googleAcknowledgementDue

    // Taken back (R9) or by hand.
    case refunded(Marketplace)
    /// Family Sharing access withdrawn (Apple's REVOKE).
    case familySharingRevoked
    case revokedByOperator

    /// Set before reasons had codes: only the words are known.
    case unclassified

    /// The stable code, e.g. `apple.status.21010`, `r5.product_id`: stored, grouped by and
    /// typed on the command line (`--rejected`).
    public var code: String {
        switch self {
        case .storeUnreachable(let store): "\(store.codePrefix).unreachable"
        case .storeServerError(let store, let http): "\(store.codePrefix).http.\(http)"
        case .storeRateLimited(let store): "\(store.codePrefix).rate_limited"
        case .storeAnswerUnreadable(let store): "\(store.codePrefix).unreadable"
        case .storeAnswerUnexpected(let store, let http): "\(store.codePrefix).unexpected.\(http)"
        case .appleStatus(let status): "apple.status.\(status)"
        case .environmentUnsettled(let status): "apple.environment.\(status)"
        case .credentialsRefused(let store): "\(store.codePrefix).credentials_refused"
        case .storeNotConfigured(let store): "\(store.codePrefix).not_configured"
        case .sharedSecretRejected: "apple.shared_secret_rejected"
        case .sharedSecretMissing: "apple.shared_secret_missing"
        case .requestUnreadable: "apple.request_unreadable"
        case .appleNotRetryable(let status): "apple.not_retryable.\(status)"
        case .undocumentedStatus(let status): "apple.undocumented.\(status)"
        case .serverAPIRefused(let status): "apple.server_api.\(status)"
        case .validWithoutContent: "apple.valid_without_content"
        case .noTransactionForOrder: "r5.no_transaction"
        case .checkFailed(let check): "r5.\(check.code)"
        case .replay: "r7.replay"
        case .doubleDelivery: "r7.double_delivery"
        case .ownershipDisputed: "r8.disputed"
        case .disputeSettled: "r8.settled"
        case .googleUnknownPurchase(let http): "google.unknown_purchase.\(http)"
        case .googlePending: "google.pending"
        case .googleCancelledBeforePayment: "google.cancelled_before_payment"
        case .googleAcknowledgementDue: "google.acknowledgement_due"
        case .refunded(let store): "r9.refunded.\(store.codePrefix)"
        case .familySharingRevoked: "r9.family_sharing"
        case .revokedByOperator: "operator.revoked"
        case .unclassified: "unclassified"
        }
    }

    public var description: String { code }

    /// The reasons whose code carries no number, by code.
    private static let byCode: [String: OrderReason] = {
        let perStore = Marketplace.allCases.flatMap { store -> [OrderReason] in
            [
                .storeUnreachable(store), .storeRateLimited(store), .storeAnswerUnreadable(store), .credentialsRefused(store), .refunded(store),
                .storeNotConfigured(store),
            ]
        }
        let others: [OrderReason] = [
            .sharedSecretRejected, .sharedSecretMissing, .requestUnreadable, .validWithoutContent, .noTransactionForOrder, .replay,
            .doubleDelivery, .ownershipDisputed, .disputeSettled, .googlePending, .googleCancelledBeforePayment, .googleAcknowledgementDue,
            .familySharingRevoked, .revokedByOperator, .unclassified,
        ]
        let all = perStore + others + ReceiptCheck.Name.allCases.map(OrderReason.checkFailed)
        return Dictionary(uniqueKeysWithValues: all.map { ($0.code, $0) })
    }()

    /// The reason a stored code names; nil for a code this version does not know.
    public init?(code: String) {
        if let reason = Self.byCode[code] {
            self = reason
            return
        }
        guard let dot = code.lastIndex(of: "."), let number = Int(code[code.index(after: dot)...]) else { return nil }
        switch code[..<dot] {
        case "apple.http": self = .storeServerError(.appStore, http: number)
        case "google.http": self = .storeServerError(.googlePlay, http: number)
        case "apple.unexpected": self = .storeAnswerUnexpected(.appStore, http: number)
        case "google.unexpected": self = .storeAnswerUnexpected(.googlePlay, http: number)
        case "apple.status": self = .appleStatus(number)
        case "apple.environment": self = .environmentUnsettled(number)
        case "apple.not_retryable": self = .appleNotRetryable(number)
        case "apple.undocumented": self = .undocumentedStatus(number)
        case "apple.server_api": self = .serverAPIRefused(number)
        case "google.unknown_purchase": self = .googleUnknownPurchase(http: number)
        default: return nil
        }
    }
}

extension Marketplace {
    /// The store's part of a reason code.
    package var codePrefix: String { self == .googlePlay ? "google" : "apple" }
}

extension ReceiptCheck.Name {
    /// The check's part of a reason code (`r5.product_id`).
    package var code: String { rawValue.replacingOccurrences(of: " ", with: "_") }
}

extension OrderReason: Codable {
    /// Encoded as its code; a code this version does not know decodes as unclassified.
    public init(from decoder: any Decoder) throws {
        self = OrderReason(code: try decoder.singleValueContainer().decode(String.self)) ?? .unclassified
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}
