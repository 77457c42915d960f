import OrderDomain

/// A Google Play purchase token as Google last reported it, for the order page: its state,
/// the acknowledgement Google's three-day rule asks for and how long is left, consumption,
/// a license tester's purchase, the region, the game's obfuscated ids and the token it
/// replaced.
public enum PlayPurchasePresentation {
    /// One section for an order's tokens; nil for an order with none (every App Store order).
    public static func section(_ purchases: [StoredPlayPurchase], now: Millis) -> DetailSection? {
        guard !purchases.isEmpty else { return nil }
        return DetailSection("Google Play", purchases.flatMap { lines($0, now: now) })
    }

    static func lines(_ purchase: StoredPlayPurchase, now: Millis) -> [DetailLine] {
        let p = purchase.facts
        var lines = [
            DetailLine(label: "token", p.purchaseToken),
            DetailLine(label: "purchase", "\(p.packageName) · \(p.productId) · \(kind(p)) · Google order \(p.orderId ?? "-")"),
            DetailLine(label: "state", state(p), tone: p.state == .purchased ? .plain : .alert),
            acknowledgement(purchase, now: now),
        ]
        if p.kind == .oneTime {
            let consumed = p.consumed ? "yes" + (purchase.consumedAt.map { " at \(TimeText.full($0))" } ?? "") : "no"
            lines.append(DetailLine(label: "consumed", consumed + " · quantity \(p.quantity)" + (p.refundableQuantity.map { ", \($0) refundable" } ?? "")))
        }
        if p.isTest { lines.append(DetailLine(label: "", "TEST purchase (license tester): no money moved", tone: .alert)) }
        if let region = p.regionCode { lines.append(DetailLine(label: "region", region)) }
        if p.obfuscatedAccountId != nil || p.obfuscatedProfileId != nil {
            lines.append(DetailLine(label: "game ids", "account \(p.obfuscatedAccountId ?? "-") · profile \(p.obfuscatedProfileId ?? "-")"))
        }
        if let linked = p.linkedPurchaseToken { lines.append(DetailLine(label: "replaced", linked, tone: .muted)) }
        if purchase.rootToken != p.purchaseToken { lines.append(DetailLine(label: "chain from", purchase.rootToken, tone: .muted)) }
        return lines
    }

    static func kind(_ p: PlayPurchaseFacts) -> String {
        switch p.kind {
        case .oneTime: "one-time product"
        case .subscription: "subscription"
        }
    }

    /// Google's state, and a subscription's own state and renewal as Google names them.
    static func state(_ p: PlayPurchaseFacts) -> String {
        var text = p.state.rawValue
        if let subscription = p.subscriptionState { text += " · " + subscription }
        if let expiry = p.expiryTime { text += " · expires \(TimeText.full(expiry))" }
        if let renews = p.autoRenew { text += renews ? " · renews" : " · will not renew" }
        return text
    }

    /// Acknowledged (when), not yet (by when, and how long is left), or not owed yet (pending).
    static func acknowledgement(_ purchase: StoredPlayPurchase, now: Millis) -> DetailLine {
        if purchase.facts.acknowledged {
            return DetailLine(label: "acknowledged", "yes" + (purchase.acknowledgedAt.map { " at \(TimeText.full($0))" } ?? ""))
        }
        guard let by = purchase.acknowledgeBy ?? purchase.facts.acknowledgeBy else {
            return DetailLine(label: "acknowledged", "no (not owed before Google is paid)", tone: .muted)
        }
        let left = by - now
        let when = left > 0 ? "\(left.ageText) left" : "deadline passed \((-left).ageText) ago"
        return DetailLine(label: "acknowledged", "NO — Google refunds it unless acknowledged by \(TimeText.full(by)) (\(when))", tone: .alert)
    }
}
