import Foundation

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

/// A decision's reason: its code and the particulars that make it this order's. Both are
/// facts; Presentation says them in words (`ReasonWords.sentence`).
public struct Why: Sendable, Equatable, Codable {
    public var reason: OrderReason
    public var particulars: ReasonParticulars

    public init(_ reason: OrderReason, _ particulars: ReasonParticulars = ReasonParticulars()) {
        self.reason = reason
        self.particulars = particulars
    }
}

extension Why {
    /// The same reason, said of the hand delivery `orderId` Apple's answer was to confirm.
    package func ofHandDelivery(_ orderId: String) -> Why {
        var why = self
        why.particulars.handDelivery = orderId
        return why
    }
}

/// The facts beside a reason's code: what the store said in its own words, who holds the
/// purchase, when it was cancelled, who acted. Kept with the order (its `reason_details`, as
/// JSON) and with the verification attempt's verdict; no field is a sentence of ours.
public struct ReasonParticulars: Sendable, Equatable, Codable {
    /// The store's or the connection's own message, as received (Google's error text, a
    /// time-out).
    public var message: String?
    /// An HTTP status the code does not carry.
    public var http: Int?
    /// The transaction refunded or revoked.
    public var transactionId: String?
    /// When the store says the purchase was cancelled.
    public var cancelledAt: Millis?
    /// R5: the check that failed, with what it saw.
    public var check: ReceiptCheck?
    /// R7: the order that holds the purchase.
    public var holder: PurchaseHolder?
    /// R8: the rule's decision.
    public var ownership: OwnershipRule.Decision?
    /// The operator who acted, and the reason they gave.
    public var actor: String?
    public var note: String?
    /// The order delivered by hand that Apple's answer was asked to confirm (R11).
    public var handDelivery: String?
    /// What an order or a verdict kept before particulars were typed, in words.
    public var words: String?

    public init(
        message: String? = nil, http: Int? = nil, transactionId: String? = nil, cancelledAt: Millis? = nil, check: ReceiptCheck? = nil,
        holder: PurchaseHolder? = nil, ownership: OwnershipRule.Decision? = nil, actor: String? = nil, note: String? = nil,
        handDelivery: String? = nil, words: String? = nil
    ) {
        self.message = message
        self.http = http
        self.transactionId = transactionId
        self.cancelledAt = cancelledAt
        self.check = check
        self.holder = holder
        self.ownership = ownership
        self.actor = actor
        self.note = note
        self.handDelivery = handDelivery
        self.words = words
    }
}

extension ReasonParticulars: StoredJSON {
    /// The particulars a `reason_details` column holds, or, for an order written before they
    /// were typed, its `last_error` words; nil when it holds neither.
    package init?(stored json: String?, words: String?, of record: String) throws {
        if let json {
            self = try ReasonParticulars(json: json, of: record)
        } else if let words {
            self.init(words: words)
        } else {
            return nil
        }
    }
}

extension Why: StoredJSON {
    /// The reason a `why` column holds, or, for a row written before reasons were typed, its
    /// words (as an unclassified reason); nil when it holds neither.
    package init?(stored json: String?, words: String?, of record: String) throws {
        if let json {
            self = try Why(json: json, of: record)
        } else if let words {
            self.init(.unclassified, ReasonParticulars(words: words))
        } else {
            return nil
        }
    }
}

/// R7: the order a purchase was claimed by first, and the purchase's key (`tid:…`, `otid:…`).
public struct PurchaseHolder: Sendable, Equatable, Codable {
    public var order: String
    public var account: String
    public var key: String

    public init(order: String, account: String, key: String) {
        self.order = order
        self.account = account
        self.key = key
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

extension Order {
    /// Sets the order's reason and its particulars together; nil clears both.
    package mutating func explain(_ why: Why?) {
        reason = why?.reason
        particulars = why?.particulars
    }

    /// The order's reason with its particulars; nil when it has none.
    public var why: Why? { reason.map { Why($0, particulars ?? ReasonParticulars()) } }
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
