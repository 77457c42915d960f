/// A job's kind with what it is about, typed: the one place that says what the jobs
/// table's `subject` text holds for each kind, written by ``subject`` and read back by
/// ``init(kind:subject:)``.
public enum JobWork: Sendable, Hashable {
    case verify(orderId: String)
    /// Notifications about one purchase, by their apply key (its original transaction id).
    case applyNotifications(key: String)
    case notificationHistory(AppleEnvironment)
    case expirySweep
    case subscriptionCheck(originalTransactionId: String)
    case sendEvents(accountId: String)
    case refundPolicy
    case finishTransaction(transactionId: String)
    /// Google Play: ask Google about one purchase token a notification named.
    case playRefresh(purchaseToken: String)
    /// Google Play: acknowledge (and consume) one delivered purchase token.
    case playAcknowledge(purchaseToken: String)
    /// Google Play: read one package's voided purchases.
    case playVoidedSweep(packageName: String)

    public var kind: JobKind {
        switch self {
        case .verify: .verify
        case .applyNotifications: .applyNotifications
        case .notificationHistory: .notificationHistory
        case .expirySweep: .expirySweep
        case .subscriptionCheck: .subscriptionCheck
        case .sendEvents: .sendEvents
        case .refundPolicy: .refundPolicy
        case .finishTransaction: .finishTransaction
        case .playRefresh: .playRefresh
        case .playAcknowledge: .playAcknowledge
        case .playVoidedSweep: .playVoidedSweep
        }
    }

    /// The text the jobs table keeps (a sweep, of which there is one, by a fixed name).
    public var subject: String {
        switch self {
        case .verify(let id), .applyNotifications(let id), .subscriptionCheck(let id), .sendEvents(let id), .finishTransaction(let id),
            .playRefresh(let id), .playAcknowledge(let id), .playVoidedSweep(let id):
            id
        case .notificationHistory(let environment): environment.rawValue
        case .expirySweep: "subscriptions"
        case .refundPolicy: "refund_requests"
        }
    }

    /// The work a stored row names; nil for a subject its kind cannot have.
    public init?(kind: JobKind, subject: String) {
        switch kind {
        case .verify: self = .verify(orderId: subject)
        case .applyNotifications: self = .applyNotifications(key: subject)
        case .notificationHistory:
            guard let environment = AppleEnvironment(rawValue: subject) else { return nil }
            self = .notificationHistory(environment)
        case .expirySweep: self = .expirySweep
        case .subscriptionCheck: self = .subscriptionCheck(originalTransactionId: subject)
        case .sendEvents: self = .sendEvents(accountId: subject)
        case .refundPolicy: self = .refundPolicy
        case .finishTransaction: self = .finishTransaction(transactionId: subject)
        case .playRefresh: self = .playRefresh(purchaseToken: subject)
        case .playAcknowledge: self = .playAcknowledge(purchaseToken: subject)
        case .playVoidedSweep: self = .playVoidedSweep(packageName: subject)
        }
    }
}
