/// Google Play's real-time developer notification types, by the names the store keeps them
/// under (`SUBSCRIPTION_RENEWED`, `ONE_TIME_PRODUCT_PURCHASED`, `VOIDED_PURCHASE`…). Google
/// sends numbers inside one of several objects; the Google Play adapter names them here.
public enum PlayNotificationType {
    /// `subscriptionNotification.notificationType`.
    public static let subscription: [Int: String] = [
        1: "SUBSCRIPTION_RECOVERED", 2: "SUBSCRIPTION_RENEWED", 3: "SUBSCRIPTION_CANCELED", 4: "SUBSCRIPTION_PURCHASED", 5: "SUBSCRIPTION_ON_HOLD",
        6: "SUBSCRIPTION_IN_GRACE_PERIOD", 7: "SUBSCRIPTION_RESTARTED", 8: "SUBSCRIPTION_PRICE_CHANGE_CONFIRMED", 9: "SUBSCRIPTION_DEFERRED",
        10: "SUBSCRIPTION_PAUSED", 11: "SUBSCRIPTION_PAUSE_SCHEDULE_CHANGED", 12: "SUBSCRIPTION_REVOKED", 13: "SUBSCRIPTION_EXPIRED",
        17: "SUBSCRIPTION_ITEMS_CHANGED", 18: "SUBSCRIPTION_CANCELLATION_SCHEDULED", 19: "SUBSCRIPTION_PRICE_CHANGE_UPDATED",
        20: "SUBSCRIPTION_PENDING_PURCHASE_CANCELED", 22: "SUBSCRIPTION_PRICE_STEP_UP_CONSENT_UPDATED",
    ]
    /// `oneTimeProductNotification.notificationType`.
    public static let oneTime: [Int: String] = [1: "ONE_TIME_PRODUCT_PURCHASED", 2: "ONE_TIME_PRODUCT_CANCELED"]
    /// `voidedPurchaseNotification`: a refund or chargeback; its subtype says full or partial.
    public static let voided = "VOIDED_PURCHASE"
    /// `pendingRefundReviewNotification`: a chargeback Google is reviewing.
    public static let refundReview = "PENDING_REFUND_REVIEW"
    /// Play Console's "Send test notification".
    public static let test = "TEST_NOTIFICATION"

    /// The name of a subscription or one-time type Google numbers but iapdesk does not know.
    public static func unknown(_ family: String, _ number: Int) -> String { "\(family)_\(number)" }

    /// Whether a notification of `type` names a purchase Google is then asked about.
    public static func isAboutAPurchase(_ type: String) -> Bool {
        type.hasPrefix("SUBSCRIPTION_") || type.hasPrefix("ONE_TIME_PRODUCT_") || type == voided
    }
}
