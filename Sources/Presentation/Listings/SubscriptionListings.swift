import OrderDomain

/// Subscriptions as a table: those a game account owns (`o` on its screen).
public enum SubscriptionListings {
    public static func owned(by accountId: String) -> Listing<Subscription> {
        Listing(
            title: "Subscriptions of \(accountId)", empty: "\(accountId) owns no subscription.",
            columns: [
                ListColumn("ORIGINAL TX", width: 18) { Cell($0.originalTransactionId) },
                ListColumn("PRODUCT", width: 12) { Cell($0.productId) },
                ListColumn("STATUS", width: 14) { Cell($0.status.rawValue) },
                ListColumn("ENDS", width: 16) { .time($0.expiresAt, .plain) },
                ListColumn("AUTO-RENEW", width: 10) { Cell($0.autoRenew ? "on" : "off") },
                ListColumn("OWNER BY", width: 12, flexible: true) { Cell($0.decidedBy.words) },
            ])
    }
}
