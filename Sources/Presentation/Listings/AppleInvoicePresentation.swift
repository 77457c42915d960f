import OrderDomain

/// Apple's order id (the `MK…` on a player's emailed invoice) as support reads it: each
/// purchase on the invoice and where it leads, and what to say when Apple gave no answer.
/// The console's invoice screen and `iapdesk order find MK…` print the same.
public enum AppleInvoicePresentation {
    public static func purchases(_ appleOrderId: String) -> Listing<InvoicePurchase> {
        Listing(
            title: "Apple order \(appleOrderId)", empty: "Apple lists no purchase on this order.",
            columns: [
                ListColumn("TRANSACTION", width: 17) { Cell($0.transaction.transaction.transactionId) },
                ListColumn("PRODUCT", width: 11) { Cell($0.transaction.transaction.productId) },
                ListColumn("BOUGHT", width: 16) { .time($0.transaction.transaction.purchaseDate) },
                ListColumn("LEADS TO", width: 20, flexible: true) { leadCell($0) },
            ])
    }

    /// Where a purchase leads, in the tone of what an operator must do about it.
    public static func leadCell(_ purchase: InvoicePurchase) -> Cell {
        let refunded = purchase.transaction.transaction.cancellationDate != nil ? " · refunded at Apple" : ""
        switch purchase.lead {
        case .claimed(let order):
            return Cell("order \(order.orderId) (\(order.state.rawValue))\(refunded)", .state(order.state))
        case .waiting(let order, let match):
            let how = match == .appAccountToken ? "its appAccountToken" : "\(order.accountId)'s open order for it"
            return Cell("waiting: order \(order.orderId) (\(order.state.rawValue)), by \(how): attach it\(refunded)", .alert)
        case .orphan:
            return Cell("orphan: no order claims or waits for it\(refunded)", .alert)
        }
    }

    /// The line said after a lookup: what was found, or why nothing could be.
    public static func summary(_ finding: AppleOrderFinding) -> (text: String, isError: Bool) {
        switch finding {
        case .found(let invoice):
            let waiting = invoice.purchases.filter { if case .waiting = $0.lead { true } else { false } }.count
            let orphans = invoice.purchases.filter { $0.lead == .orphan }.count
            let count = invoice.purchases.count
            var parts = ["Apple's order \(invoice.appleOrderId): \(count) purchase\(count == 1 ? "" : "s")"]
            if waiting > 0 { parts.append("\(waiting) waiting for an order to claim it") }
            if orphans > 0 { parts.append("\(orphans) no order claims") }
            return (parts.joined(separator: ", "), waiting + orphans > 0)
        case .unknownToApple(let id):
            return ("Apple knows no order \(id) (asked in production and sandbox, as every app of this store)", true)
        case .appleDidNotAnswer(let id, let reason):
            return ("Apple did not answer about \(id): try again (\(reason))", true)
        }
    }

    /// Said when Apple's order id cannot be asked at all: Look Up Order ID needs the key.
    public static let needsServerAPI =
        "finding Apple's order ids needs the App Store Server API key ([apple] key_file, key_id, issuer_id)"
}
