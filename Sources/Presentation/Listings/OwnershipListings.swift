import OrderDomain

/// R8 decisions as rows.
public enum OwnershipListings {
    /// Both stores' disputes, or `store`'s alone (its title says which).
    public static func disputes(store: Marketplace? = nil) -> Listing<Dispute> {
        Listing(
            title: "Disputes (R8 decisions to review)" + (store.map { ", \($0.name) only" } ?? ""),
            empty: store.map { "No \($0.name) ownership decision is waiting for review." } ?? "No ownership decision is waiting for review.",
            columns: [
                ListColumn("WHEN", width: 11) { .time($0.event.at) },
                ListColumn("STORE", width: 5, optional: true) { Cell($0.marketplace.shortName, .muted) },
                ListColumn("SUBSCRIPTION", width: 16) { Cell($0.event.originalTransactionId) },
                ListColumn("ORDER", width: 14) { Cell($0.event.orderId) },
                ListColumn("SUBMITTER", width: 10, flexible: true) { Cell($0.event.submittedBy) },
                ListColumn("VERDICT", width: 12) { Cell($0.event.verdict.rawValue, .state(.disputed)) },
                ListColumn("OWNER", width: 10) { Cell($0.event.toAccount) },
            ])
    }
}
