/// An order as the store holds it: our order id (sent to Apple as `applicationUsername` /
/// `appAccountToken`), who placed it, what it buys, and where it is in its life.
public struct Order: Sendable, Equatable, Codable {
    /// The game's id for the order, unique in the store.
    public var orderId: String
    /// The game account that placed it and is owed the goods.
    public var accountId: String
    public var productId: String
    public var quantity: Int
    /// When the game placed the order, before the player paid.
    public var createdAt: Millis
    /// Where the order is in its life (``OrderState``).
    public var state: OrderState
    public var stateChangedAt: Millis
    /// Optimistic concurrency: every change bumps it; acting on a stale version fails.
    public var version: Int64
    /// Who made the last change (an operator name, or `system`).
    public var updatedBy: String
    /// When the order entered a paid-but-undelivered state; nil otherwise.
    public var stuckSince: Millis?
    /// Production or sandbox, from Apple's answer (R2); nil before one.
    public var environment: AppleEnvironment?
    /// The purchase this order claimed (R7); nil until a valid answer names it.
    public var transactionId: String?
    /// For a subscription, the id its renewals share.
    public var originalTransactionId: String?
    /// Calls to Apple made for the order so far.
    public var attempts: Int
    /// The first failure of the current run of retryable failures (R4's 72 h window).
    public var firstFailureAt: Millis?
    /// When the worker asks Apple again (R4); nil when nothing is scheduled.
    public var nextRetryAt: Millis?
    /// The facts of the latest reason (Apple's status, a time-out's message, a failed check,
    /// who holds the purchase): the particulars of ``reason``.
    public internal(set) var particulars: ReasonParticulars?
    /// Why the order waits, was turned down or left delivery, as a code (alerts group by it,
    /// bulk re-verification selects by it); set with ``particulars`` by `explain(_:)`.
    public internal(set) var reason: OrderReason?
    /// R4: the retry schedule ran out; only an operator can move it now.
    public var needsOperator: Bool
    /// R7: this order tried to claim a purchase another order already claimed.
    public var replayFlag: Bool
    /// R7/R11: delivered by hand, then Apple's answer showed the purchase already delivered
    /// to this other order: two deliveries for one purchase, for an operator to settle.
    public var deliveryConflict: String? = nil
    /// The app (bundle id) it was placed in: its product's, fixed when placed; for a Google
    /// Play purchase, the package name it was bought in.
    public var app: String? = nil
    /// The store it was paid in: the App Store until a Google Play purchase is submitted for it.
    public var marketplace: Marketplace = .appStore

    /// Delivered by an operator before Apple confirmed which purchase paid for it: it keeps
    /// being verified (R4) until an answer claims the purchase (R7).
    public var isUnconfirmedDelivery: Bool { state == .delivered && transactionId == nil }

    /// Still waiting for the store's word to go on: a receipt not yet verified, a retry due,
    /// a verified order never delivered (a crash between the two), a hand delivery not yet
    /// confirmed. The worker asks only about these, and an answer moves each of them on.
    public var awaitsVerification: Bool {
        switch state {
        case .receiptReceived, .verifyRetry, .verified: true
        case .delivered: isUnconfirmedDelivery
        default: false
        }
    }

    /// Placed or paid, with no purchase claimed yet: a purchase no order claims can be
    /// attached to it (an orphan, or one found on Apple's invoice).
    public var waitsForPurchase: Bool {
        transactionId == nil && (state == .pendingPayment || state == .receiptReceived || state == .verifyRetry)
    }

    /// Every field, for a screen or a report built from values (a test, a preview).
    public init(
        orderId: String, accountId: String, productId: String, quantity: Int, createdAt: Millis, state: OrderState, stateChangedAt: Millis, version: Int64,
        updatedBy: String, stuckSince: Millis? = nil, environment: AppleEnvironment? = nil, transactionId: String? = nil, originalTransactionId: String? = nil,
        attempts: Int, firstFailureAt: Millis? = nil, nextRetryAt: Millis? = nil, particulars: ReasonParticulars? = nil, reason: OrderReason? = nil,
        needsOperator: Bool,
        replayFlag: Bool, deliveryConflict: String? = nil, app: String? = nil
    ) {
        self.orderId = orderId
        self.accountId = accountId
        self.productId = productId
        self.quantity = quantity
        self.createdAt = createdAt
        self.state = state
        self.stateChangedAt = stateChangedAt
        self.version = version
        self.updatedBy = updatedBy
        self.stuckSince = stuckSince
        self.environment = environment
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.attempts = attempts
        self.firstFailureAt = firstFailureAt
        self.nextRetryAt = nextRetryAt
        self.particulars = particulars
        self.reason = reason ?? (particulars == nil ? nil : .unclassified)
        self.needsOperator = needsOperator
        self.replayFlag = replayFlag
        self.deliveryConflict = deliveryConflict
        self.app = app
    }
}
