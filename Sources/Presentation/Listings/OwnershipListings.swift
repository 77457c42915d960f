import OrderDomain

/// R8 decisions as rows.
public enum OwnershipListings {
    public static func disputes() -> Listing<Dispute> {
        Listing(
            title: "Disputes (R8 decisions to review)", empty: "No ownership decision is waiting for review.",
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
