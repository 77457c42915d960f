/// What an App Store Server Notification V2 means for the store, decided in one place
/// from its type and subtype (apple-iap.md §4.2; production.md §1.2). The store applies
/// the effect through the same rules a receipt goes through.
public enum NotificationEffect: Sendable, Equatable {
    /// REFUND (every product type: for consumables the only signal) or REVOKE (Family
    /// Sharing withdrawn): R9 takes the delivery back.
    case cancel(Cancellation)
    /// REFUND_REVERSED: the refund is undone and the order delivered again.
    case refundReversed
    /// SUBSCRIBED, DID_RENEW, OFFER_REDEEMED: a new period; the subscription's end moves.
    /// The owner stays: R8 moves ownership only when another account submits the renewal.
    case newPeriod
    /// Where the subscription stands now; nil fields are left as the renewal info says.
    case subscriptionStatus(SubscriptionStatus?, autoRenew: Bool?)
    /// CONSUMPTION_REQUEST: a refund was asked for; an operator answers before the deadline.
    case consumptionRequest
    /// TEST, REFUND_DECLINED, and types that change nothing here: kept for the record.
    case record

    /// How long Apple waits for consumption information before it decides a refund
    /// request without it (production.md §1.2: 12 hours).
    public static let consumptionDeadline: Millis = .hours(12)

    /// What a notification of this `notificationType` and `subtype` does to the store.
    public static func of(type: String?, subtype: String?) -> NotificationEffect {
        switch type {
        case "REFUND": .cancel(.refund)
        case "REVOKE": .cancel(.revoke)
        case "REFUND_REVERSED": .refundReversed
        case "SUBSCRIBED", "DID_RENEW", "OFFER_REDEEMED": .newPeriod
        case "DID_CHANGE_RENEWAL_STATUS":
            .subscriptionStatus(nil, autoRenew: subtype == "AUTO_RENEW_DISABLED" ? false : subtype == "AUTO_RENEW_ENABLED" ? true : nil)
        case "EXPIRED": .subscriptionStatus(.expired, autoRenew: false)
        // With a grace period the player keeps the service while Apple retries the charge.
        case "DID_FAIL_TO_RENEW": .subscriptionStatus(subtype == "GRACE_PERIOD" ? .gracePeriod : .billingRetry, autoRenew: nil)
        // The grace period ended; Apple may still retry the charge, without service.
        case "GRACE_PERIOD_EXPIRED": .subscriptionStatus(.billingRetry, autoRenew: nil)
        case "CONSUMPTION_REQUEST": .consumptionRequest
        default: .record
        }
    }

    /// Whether a newer notification of the same family about the same transaction makes
    /// this one stale: a refund recovered from history must not undo a later reversal.
    var family: [String]? {
        switch self {
        case .cancel, .refundReversed: ["REFUND", "REVOKE", "REFUND_REVERSED"]
        default: nil
        }
    }
}
