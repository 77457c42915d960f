import Foundation

/// What applying a notification did, as facts: the order it moved, the purchase no order
/// claims yet, the newer notification that made it stale. Kept in the notification's
/// `detail` column as JSON (rows from before hold words, read back as ``words(_:)``);
/// Presentation says it.
public enum NotificationDetail: Sendable, Equatable, StoredJSON {
    // Stale: something newer was applied first.
    case supersededBy(notification: Int64, type: String, transactionId: String)
    case subscriptionFactsNewer(originalTransactionId: String?)

    // The notification names nothing to act on.
    case noTransaction
    case noSubscription
    case noAppTransaction
    case noPurchaseToken

    // R9: refunds, partial refunds and their reversals.
    case cancelUnclaimed(transactionId: String, revoked: Bool)
    case orderRefunded(orderId: String)
    case nothingToTakeBack(orderId: String, state: OrderState)
    case reversalUnclaimed(transactionId: String)
    case deliveredAgain(orderId: String)
    case nothingToDeliverAgain(orderId: String, state: OrderState)
    /// `share` in thousandths of a percent, as Apple signs it.
    case shareUnclaimed(transactionId: String, share: Int)
    case shareOfUndelivered(orderId: String, state: OrderState)
    case shareToldAlready(orderId: String)
    case shareTold(orderId: String, takesBack: Bool, share: Int, units: Int, of: Int)
    case shareCleared

    // Subscriptions (R8 decides the owner).
    case periodWaits(originalTransactionId: String, transactionId: String, until: Millis?)
    case periodForOwner(transactionId: String, until: Millis?, owner: String)
    case subscriptionStands(originalTransactionId: String, status: SubscriptionStatus?, autoRenew: Bool?, ownerKnown: Bool)

    // Everything else a notification can say.
    case refundRequested(reason: String?, answerBy: Millis)
    case purchaseUnclaimed(transactionId: String)
    case purchaseClaimed(orderId: String, transactionId: String)
    case consentUnclaimed(appTransactionId: String)
    case consentRescinded(appTransactionId: String, accounts: [String])
    case extensionFinished(requestId: String, productId: String?, succeeded: Int64, failed: Int64, askedByUs: Bool)
    case googleAsked
    /// Kept for the record: what it means follows from its facts alone.
    case kept

    /// What a notification applied before details were typed said, in words.
    case words(String)

    /// A stored detail: JSON for details from this version on, words for those before.
    public init(storedText: String) {
        self = Self.unlessWords(storedText) ?? .words(storedText)
    }
}
