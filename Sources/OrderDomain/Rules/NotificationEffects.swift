/// What an App Store Server Notification V2 means for the store, decided in one place
/// from its type and subtype (apple-iap.md §4.2; production.md §1.2). The store applies
/// the effect through the same rules a receipt goes through.
public enum NotificationEffect: Sendable, Equatable {
    /// REFUND (every product type: for consumables the only signal) or REVOKE (Family
    /// Sharing withdrawn): R9 takes the delivery back.
    case cancel(Cancellation)
    /// A REFUND of only part of a pack (`REFUND_PRORATED`), `share` in thousandths of a
    /// percent: the game takes that share back and the order stays delivered. (A prorated
    /// refund of a subscription ends it: that is a `cancel`.)
    case partialRefund(share: Int)
    /// REFUND_REVERSED: the refund is undone and the order delivered again.
    case refundReversed
    /// ONE_TIME_CHARGE: a consumable, non-consumable or non-renewing purchase (Family
    /// Sharing of a non-consumable too). Its transaction is kept; one no order claims is
    /// an orphan support sees: paid at Apple, never submitted by the game.
    case purchase
    /// SUBSCRIBED, DID_RENEW, OFFER_REDEEMED, RENEWAL_EXTENDED, DID_CHANGE_RENEWAL_PREF/UPGRADE
    /// (which starts a period at once): the subscription's end moves.
    /// The owner stays: R8 moves ownership only when another account submits the renewal.
    case newPeriod
    /// Where the subscription stands now; nil fields are left as the renewal info says.
    case subscriptionStatus(SubscriptionStatus?, autoRenew: Bool?)
    /// CONSUMPTION_REQUEST: a refund was asked for; an operator answers before the deadline.
    case consumptionRequest
    /// RESCIND_CONSENT: a parent withdrew consent for the app; every game account the Apple
    /// Account played (by its app transaction id) loses access.
    case consentRescinded
    /// RENEWAL_EXTENSION/SUMMARY: an extension for all subscribers iapdesk asked for is done.
    case extensionSummary
    /// Google Play: a real-time developer notification about a purchase token. Google's
    /// notifications say what happened, not where the purchase stands, so Google is asked
    /// (the worker's `play_refresh`) and its answer goes through the rules.
    case askGoogle
    /// TEST, REFUND_DECLINED, PRICE_INCREASE, a downgrade waiting for the renewal,
    /// RENEWAL_EXTENSION, and types iapdesk does not know: kept for the
    /// record, each with what it means (said by Presentation's `NotificationWords`).
    case record

    /// How long Apple waits for consumption information before it decides a refund
    /// request without it (production.md §1.2: 12 hours).
    public static let consumptionDeadline: Millis = .hours(12)

    /// What `facts` do to the store: by type and subtype, and a refund of a share of the
    /// purchase is a partial refund.
    public static func of(_ facts: NotificationFacts) -> NotificationEffect {
        if facts.purchaseToken != nil, let type = facts.type, PlayNotificationType.isAboutAPurchase(type) { return .askGoogle }
        let effect = of(type: facts.type, subtype: facts.subtype)
        if effect == .cancel(.refund), let t = facts.transaction, t.isPartlyRefunded, t.expiresDate == nil {
            return .partialRefund(share: t.refundedShare ?? 0)
        }
        return effect
    }

    /// What a notification of this `notificationType` and `subtype` does to the store.
    public static func of(type: String?, subtype: String?) -> NotificationEffect {
        switch type {
        case "REFUND": .cancel(.refund)
        case "REVOKE": .cancel(.revoke)
        case "REFUND_REVERSED": .refundReversed
        case "ONE_TIME_CHARGE": .purchase
        case "SUBSCRIBED", "DID_RENEW", "OFFER_REDEEMED", "RENEWAL_EXTENDED": .newPeriod
        case "DID_CHANGE_RENEWAL_PREF" where subtype == "UPGRADE": .newPeriod
        case "RENEWAL_EXTENSION" where subtype == "SUMMARY": .extensionSummary
        case "DID_CHANGE_RENEWAL_STATUS":
            .subscriptionStatus(nil, autoRenew: subtype == "AUTO_RENEW_DISABLED" ? false : subtype == "AUTO_RENEW_ENABLED" ? true : nil)
        case "EXPIRED": .subscriptionStatus(.expired, autoRenew: false)
        // With a grace period the player keeps the service while Apple retries the charge.
        case "DID_FAIL_TO_RENEW": .subscriptionStatus(subtype == "GRACE_PERIOD" ? .gracePeriod : .billingRetry, autoRenew: nil)
        // The grace period ended; Apple may still retry the charge, without service.
        case "GRACE_PERIOD_EXPIRED": .subscriptionStatus(.billingRetry, autoRenew: nil)
        case "CONSUMPTION_REQUEST": .consumptionRequest
        case "RESCIND_CONSENT": .consentRescinded
        default: .record
        }
    }

    /// Whether a newer notification of the same family about the same transaction makes
    /// this one stale: a refund recovered from history must not undo a later reversal.
    package var family: [String]? {
        switch self {
        case .cancel, .partialRefund, .refundReversed: ["REFUND", "REVOKE", "REFUND_REVERSED"]
        default: nil
        }
    }
}
