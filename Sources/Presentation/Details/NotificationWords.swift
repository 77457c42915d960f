import OrderDomain

/// What applying a notification did, in words: the notification page, the notifications
/// list, an order's and a subscription's timelines.
public enum NotificationWords {
    /// The notification's rejection or what applying it did; nil while it waits.
    public static func detail(_ record: NotificationRecord) -> String? {
        record.rejection?.words ?? record.detail.map { said($0, facts: record.facts) }
    }

    public static func said(_ detail: NotificationDetail, facts: NotificationFacts) -> String {
        switch detail {
        case .supersededBy(let id, let type, let tid): "notification #\(id) (\(type)) about transaction \(tid) was signed later and applied first"
        case .subscriptionFactsNewer(let otid): "facts about subscription \(otid ?? "?") newer than this were stored first"
        case .noTransaction: "carries no transaction"
        case .noSubscription: "names no subscription"
        case .noAppTransaction: "names no app transaction"
        case .noPurchaseToken: "names no purchase token"
        case .cancelUnclaimed(let tid, let revoked): "no order claims transaction \(tid); it is kept as \(revoked ? "revoked" : "refunded")"
        case .orderRefunded(let orderId): "order \(orderId) refunded and its grant revoked (R9)"
        case .nothingToTakeBack(let orderId, let state): "order \(orderId) is \(state.rawValue): nothing delivered to take back"
        case .reversalUnclaimed(let tid): "no order claims transaction \(tid); its refund is cleared"
        case .deliveredAgain(let orderId): "order \(orderId) delivered again (refund reversed)"
        case .nothingToDeliverAgain(let orderId, let state): "order \(orderId) is \(state.rawValue): nothing to deliver again"
        case .shareUnclaimed(let tid, let share): "no order claims transaction \(tid); Apple refunded \(ShareWords.percent(share)) of it"
        case .shareOfUndelivered(let orderId, let state): "order \(orderId) is \(state.rawValue): nothing delivered to take a share of"
        case .shareToldAlready(let orderId): "order \(orderId): the game was told of this share already"
        case .shareTold(let orderId, let takesBack, let share, let units, let quantity):
            "order \(orderId) stays delivered; the game \(takesBack ? "takes" : "gives") back \(ShareWords.percent(share)) (\(units) of \(quantity) whole)"
        case .shareCleared: "its share is cleared"
        case .periodWaits(let otid, let tid, let until):
            "no order holds subscription \(otid) yet: its facts are kept, and \(period(tid, until)) waits for an order"
        case .periodForOwner(let tid, let until, let owner): "\(period(tid, until)) for \(owner), the owner (R8)"
        case .subscriptionStands(let otid, let status, let autoRenew, let ownerKnown):
            (ownerKnown ? "" : "no order holds it yet: ") + "subscription \(otid): \(status?.rawValue ?? "status unchanged"), "
                + "auto-renew \(autoRenew.map { $0 ? "on" : "off" } ?? "unchanged")" + (ownerKnown ? "" : ", owner unknown")
        case .refundRequested(let reason, let answerBy):
            "refund requested (\(reason ?? "no reason given")): send consumption information by \(answerBy.iso8601)"
        case .purchaseUnclaimed(let tid): "paid at Apple, and no order claims transaction \(tid) yet: the game has not submitted it"
        case .purchaseClaimed(let orderId, let tid): "order \(orderId) claims transaction \(tid)"
        case .consentUnclaimed(let app):
            "a parent withdrew consent for app transaction \(app), and no verified purchase names a game account for it: tell the game by hand"
        case .consentRescinded(let app, let accounts):
            "a parent withdrew consent (app transaction \(app)): the game ends the access of \(accounts.joined(separator: ", "))"
        case .extensionFinished(let id, let productId, let succeeded, let failed, let askedByUs):
            askedByUs
                ? "Apple finished extension \(id) for all subscribers of \(productId ?? "?"): \(succeeded) extended, \(failed) failed"
                : "Apple finished extension \(id) for \(productId ?? "?"): \(succeeded) extended, \(failed) failed; iapdesk did not ask for it"
        case .googleAsked: "Google is asked where the purchase stands (its notifications carry no state)"
        case .kept: kept(facts)
        case .words(let words): words
        }
    }

    /// "period 1000000123 until 2026-12-01T00:00:00Z".
    private static func period(_ transactionId: String, _ until: Millis?) -> String {
        "period \(transactionId)" + (until.map { " until \($0.iso8601)" } ?? "")
    }

    /// What a notification kept for the record means, for the operator reading it.
    static func kept(_ facts: NotificationFacts) -> String {
        let product = facts.renewal?.productId ?? "another product"
        switch (facts.type, facts.subtype) {
        case ("TEST", _), (PlayNotificationType.test, _): return "test notification"
        case (PlayNotificationType.refundReview, _):
            return "Google is reviewing a chargeback (\(facts.subtype ?? "order unnamed")); nothing changes until it is decided"
        case ("REFUND_DECLINED", _): return "Apple declined the player's refund request; nothing changes"
        case ("PRICE_INCREASE", "PENDING"): return "a price increase waits for the subscriber's consent; without it the subscription expires"
        case ("PRICE_INCREASE", _): return "the subscriber accepted the price increase"
        case ("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE"): return "renews to \(product) at the next renewal (downgrade); this period is unchanged"
        case ("DID_CHANGE_RENEWAL_PREF", _): return "renews to \(product) at the next renewal; a waiting change is cancelled"
        case ("RENEWAL_EXTENSION", "SUMMARY"): return "Apple finished an extension for all subscribers of a product"
        case ("RENEWAL_EXTENSION", "FAILURE"): return "Apple could not extend this subscription in an extension for all subscribers"
        case ("EXTERNAL_PURCHASE_TOKEN", _):
            let token = facts.externalPurchaseToken
            let id = token?.externalPurchaseId.map { "external purchase \($0)" } ?? "an external purchase token"
            let type = token?.tokenType.map { " (\($0))" } ?? ""
            let until = token?.tokenExpirationDate.map { ", valid until \($0.iso8601)" } ?? ""
            return "\(id)\(type) for \(token?.bundleId ?? "the app"): paid outside the App Store\(until); no effect on orders"
        case ("METADATA_UPDATE", _), ("MIGRATION", _), ("PRICE_CHANGE", _):
            return "\(facts.kind): no effect on orders"
        default: return "\(facts.kind) is a type iapdesk does not know: kept raw, no effect on orders"
        }
    }
}
