/// What Apple's Look Up Order ID said of an order id (the `MK…` on a player's emailed
/// invoice) in one environment, its signed transactions verified by the caller.
public enum AppleOrderAnswer: Sendable, Equatable {
    /// The purchases on the invoice.
    case purchases([AppleTransaction])
    /// Apple knows no order with this id in this environment.
    case unknown
    /// Nothing to go by: Apple could not be reached, refused the key, or its answer did not
    /// verify. The reason is Apple's or the transport's, to show as it is.
    case failed(String)
}

/// Asks Apple's Look Up Order ID about `appleOrderId` in `environment`, as the acting app.
public typealias AppleOrderLookUp = @Sendable (_ appleOrderId: String, _ environment: AppleEnvironment) async -> AppleOrderAnswer

/// Where Apple's order id led (``Orders/findAppleOrder(_:asking:)``): every purchase on the
/// invoice leads somewhere, or the lookup says why it could not be made.
public enum AppleOrderFinding: Sendable, Equatable {
    case found(AppleInvoice)
    /// Apple answered, in every environment of every app, that it knows no such order.
    case unknownToApple(appleOrderId: String)
    /// Apple gave no usable answer; nothing was learned, so a later try may find it.
    case appleDidNotAnswer(appleOrderId: String, reason: String)

    /// The invoice, when one was found.
    public var invoice: AppleInvoice? {
        if case .found(let invoice) = self { invoice } else { nil }
    }
}

/// One of Apple's invoices and where each purchase on it leads.
public struct AppleInvoice: Sendable, Equatable {
    public var appleOrderId: String
    public var purchases: [InvoicePurchase]

    public init(appleOrderId: String, purchases: [InvoicePurchase]) {
        self.appleOrderId = appleOrderId
        self.purchases = purchases
    }

    /// The orders the purchases lead to (claimed or waiting), once each, in invoice order.
    public var orders: [Order] {
        var seen = Set<String>()
        return purchases.compactMap(\.lead.order).filter { seen.insert($0.orderId).inserted }
    }
}

/// A purchase on one of Apple's invoices, as the store knows it, and the order it leads to.
public struct InvoicePurchase: Sendable, Equatable {
    public var transaction: StoredTransaction
    public var lead: Lead

    public init(transaction: StoredTransaction, lead: Lead) {
        self.transaction = transaction
        self.lead = lead
    }

    public enum Lead: Sendable, Equatable {
        /// The order that claimed the purchase (R7).
        case claimed(Order)
        /// No order claims it, and this one was waiting for it: attaching delivers it.
        case waiting(Order, WaitingMatch)
        /// No order claims it and none waits for it: an orphan to attach by hand.
        case orphan

        public var order: Order? {
            switch self {
            case .claimed(let order), .waiting(let order, _): order
            case .orphan: nil
            }
        }
    }

    /// How a waiting order was found for a purchase no order claims.
    public enum WaitingMatch: String, Sendable, Equatable {
        /// The purchase carries the order's id as its `appAccountToken`.
        case appAccountToken
        /// The account's open order for the same product: the account is the one the
        /// token's order names, or one seen on the same Apple Account (`appTransactionId`).
        case openOrder
    }
}
