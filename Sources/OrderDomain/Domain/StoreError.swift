/// Errors the store reports. Each says what happened; what the operator does about it (the
/// console's key, the CLI's command) is Presentation's to say (`ErrorWords`).
public enum StoreError: Error, Equatable {
    case corrupt(String)
    case notFound(kind: RecordKind, id: String)
    /// Optimistic concurrency: the order changed after the operator read it.
    case conflict(orderId: String, changedBy: String, at: Millis, version: Int64)
    /// R11: the order already has a live grant.
    case alreadyDelivered(orderId: String, by: String, at: Millis)
    case illegalTransition(orderId: String, from: OrderState, to: OrderState)
    case forbidden(action: OperatorAct, role: Role)
    /// The store was opened on a PostgreSQL hot standby, which only reads.
    case onReplica(action: OperatorAct)
    case reasonRequired(action: OperatorAct)
    /// Malformed input to an operation (an empty id, a quantity of zero): the caller's
    /// mistake, one ``InvalidInput`` value for each kind.
    case invalid(InvalidInput)
    /// An order id placed before; a retrying caller uses `orders.ensure`.
    case orderExists(orderId: String)
    /// Nothing to ask Apple about: the order has no receipt (yet).
    case noReceipt(orderId: String)
    case emptyReceipt(orderId: String)
    /// Attaching an orphan: the transaction belongs to another order already.
    case transactionTaken(transactionId: String, orderId: String)
    /// Attaching an orphan: the order has its own transaction already.
    case hasTransaction(orderId: String, state: OrderState)
    /// Only dead jobs are requeued; the others run on their own.
    case jobNotDead(id: Int64)
    /// R8: transferring a subscription to the account that owns it.
    case alreadyOwner(accountId: String, originalTransactionId: String)
    /// R8: settling an order that is not a disputed renewal.
    case notDisputed(orderId: String, state: OrderState)
    /// A filter no index serves; the text says what to add or drop.
    case unservedFilter(String)
    /// A notification that failed its checks is kept, never applied.
    case notificationRejected(id: Int64)
    case firstOperatorMustBeAdmin
    /// R8: a disputed renewal leaves only by settling, never by a plain grant.
    case mustSettleDispute(orderId: String)
    /// R5: a check turned down a transaction an operator tried to attach.
    case checkFailed(orderId: String, check: ReceiptCheck)
    /// R7: the purchase already delivered for another order.
    case replay(orderId: String, holder: PurchaseHolder)
    /// An `Idempotency-Key` used before with a different request.
    case idempotencyMismatch(key: String)
    /// An order id placed before with another account, product or quantity.
    case orderMismatch(orderId: String)
    /// Another process (a worker, another operator's bulk run) is asking Apple about this
    /// order right now; asking again would be a second call for one answer.
    case verifyingElsewhere(orderId: String, by: String)
    /// The database cannot be reached or cannot take a write now (a restart, a full disk, a
    /// file made read-only, no answer within the deadline). Nothing of the call was stored;
    /// the same call later may succeed. `why` is the database's own words.
    case unavailable(String)
    /// An order names a product the catalogue does not hold.
    case unknownProduct(String)
    /// An order names a product an admin retired.
    case productRetired(String)
    /// Adding a product the catalogue holds already.
    case productExists(String)
    /// A command names an app (bundle id or package) the store does not serve; `subject` (a
    /// product id) is what named it.
    case unknownApp(String, served: [String], subject: String?)
    /// A store's own action asked of an order paid in the other store (a Google Play refund
    /// of an App Store order), or of one whose purchase that store never confirmed.
    case notPaidIn(Marketplace, id: String)
    /// Deferring a Google Play subscription's renewal the rules turn down before Google is asked.
    case deferRefused(originalTransactionId: String, DeferRefusal)
}

/// Why deferring a Google Play subscription is refused before Google is asked.
public enum DeferRefusal: Sendable, Equatable {
    /// Outside 1 to `max` days.
    case days(Int, max: Int)
    /// Google defers active subscriptions only; nil: the store knows no state for it.
    case notActive(SubscriptionStatus?)
}
