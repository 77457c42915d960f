/// Everything known about one order: the order and what happened to it.
public struct OrderDetail: Sendable {
    public var order: Order
    /// The product ordered; nil when the catalogue no longer lists it.
    public var product: Product?
    /// Receipts sent for the order, oldest first.
    public var submissions: [Submission]
    /// The latest calls to Apple about the order (up to the query's limit), oldest first.
    public var attempts: [VerificationAttempt]
    /// Deliveries of the order, revoked ones included.
    public var grants: [Grant]
    /// The transactions the order claimed (R7).
    public var transactions: [StoredTransaction]
    /// Apple's notifications about the order's transactions, oldest first.
    public var notifications: [NotificationRecord] = []
    /// The audit entries whose target is the order.
    public var audit: [AuditEntry]
    /// What the game was told about the order, with every try.
    public var events: [GameEventDetail] = []
    /// R7: for an order rejected as a replay, the order that holds the purchase.
    public var replayHolder: String? = nil
    /// R8: for a disputed renewal, the account that owns the subscription (the order's own
    /// account submitted the renewal).
    public var subscriptionOwner: String? = nil
    /// Support's notes on the order, oldest first.
    public var notes: [Note] = []
    /// A Google Play order's purchase tokens as Google last reported them (the submitted
    /// one, and those its claimed purchases were paid under), first seen first.
    public var playPurchases: [StoredPlayPurchase] = []

    /// Every field, for a screen or a report built from values (a test, a preview).
    public init(
        order: Order, product: Product? = nil, submissions: [Submission], attempts: [VerificationAttempt], grants: [Grant], transactions: [StoredTransaction],
        notifications: [NotificationRecord] = [], audit: [AuditEntry], events: [GameEventDetail] = [], replayHolder: String? = nil,
        subscriptionOwner: String? = nil, notes: [Note] = [], playPurchases: [StoredPlayPurchase] = []
    ) {
        self.playPurchases = playPurchases
        self.order = order
        self.product = product
        self.submissions = submissions
        self.attempts = attempts
        self.grants = grants
        self.transactions = transactions
        self.notifications = notifications
        self.audit = audit
        self.events = events
        self.replayHolder = replayHolder
        self.subscriptionOwner = subscriptionOwner
        self.notes = notes
    }
}

/// A subscription by original transaction id: the chain, who submitted each transaction,
/// the owner history and the R8 decisions.
public struct SubscriptionDetail: Sendable {
    /// The subscription's row; nil when the store knows its transactions but no owner yet.
    public var subscription: Subscription?
    /// Every period of the subscription the store has seen, oldest first.
    public var chain: [StoredTransaction]
    /// The orders, from any account, that claimed a period of it, oldest first.
    public var orders: [Order]
    /// R8's and operators' decisions about its owner, oldest first.
    public var ownership: [OwnershipEvent]
    /// Apple's notifications about the subscription, oldest `signedDate` first.
    public var notifications: [NotificationRecord] = []
    /// The extensions of its renewal date operators asked of Apple, oldest first.
    public var extensions: [SubscriptionExtension] = []
    /// Every game account the Apple Account that pays for it bought with (its
    /// `appTransactionId`), with their refunds: in an R8 dispute, whether the accounts that
    /// claim it are one player's.
    public var appleAccountPlayers: [SiblingAccount] = []

    /// Every field, for a screen or a report built from values (a test, a preview).
    public init(
        subscription: Subscription? = nil, chain: [StoredTransaction], orders: [Order], ownership: [OwnershipEvent], notifications: [NotificationRecord] = [],
        extensions: [SubscriptionExtension] = [], appleAccountPlayers: [SiblingAccount] = []
    ) {
        self.subscription = subscription
        self.chain = chain
        self.orders = orders
        self.ownership = ownership
        self.notifications = notifications
        self.extensions = extensions
        self.appleAccountPlayers = appleAccountPlayers
    }
}

/// An account: its orders, grants, subscriptions and flags.
public struct AccountDetail: Sendable {
    public var accountId: String
    /// The account's orders, newest first.
    public var orders: [Order]
    /// What was delivered to the account, revoked grants included.
    public var grants: [Grant]
    /// The subscriptions the account owns.
    public var subscriptions: [Subscription]
    /// Marks for support, such as replayed receipts.
    public var flags: [AccountFlag]
    /// Support's notes on the account, oldest first.
    public var notes: [Note] = []
    /// Other game accounts the same Apple Account bought with (an `appTransactionId` their
    /// purchases share), with how many of their orders were refunded: the heart of an R8
    /// dispute, and of a player asking for refunds under several names.
    public var sameAppleAccount: [SiblingAccount] = []

    /// Every field, for a screen or a report built from values (a test, a preview).
    public init(
        accountId: String, orders: [Order], grants: [Grant], subscriptions: [Subscription], flags: [AccountFlag], notes: [Note] = [],
        sameAppleAccount: [SiblingAccount] = []
    ) {
        self.accountId = accountId
        self.orders = orders
        self.grants = grants
        self.subscriptions = subscriptions
        self.flags = flags
        self.notes = notes
        self.sameAppleAccount = sameAppleAccount
    }
}
