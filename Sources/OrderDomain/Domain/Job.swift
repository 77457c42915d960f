/// What a worker does for a job's subject.
public enum JobKind: String, Sendable, Codable, CaseIterable {
    /// Ask Apple about an order's latest receipt (its subject is the order id): at once
    /// after a submission, then on the R4 schedule the order keeps.
    case verify
    /// Apply the stored notifications about one original transaction (its subject), oldest
    /// `signedDate` first: one job per purchase keeps two workers from applying its
    /// notifications out of order.
    case applyNotifications = "notifications"
    /// Recover, from Get Notification History, what Apple failed to deliver while we were
    /// down (its subject is the environment); scheduled again after each sweep.
    case notificationHistory = "notification_history"
    /// Find the subscriptions whose period ends soon and owe them a check (seed 003:
    /// "将快要到期的收据拿去验证"); one job, scheduled again after each sweep.
    case expirySweep = "expiry_sweep"
    /// Ask Apple about one subscription (its subject is the original transaction id)
    /// through its newest delivered order's receipt: a renewal, an expiry or a refund
    /// the notifications did not bring is learned this way.
    case subscriptionCheck = "subscription_check"

    /// Tell the game about one account's events, oldest first (its subject is the
    /// account id): one job per account keeps the game's view of it in order.
    case sendEvents = "send_events"

    /// Answer the refund requests the studio's ``RefundPolicy`` speaks for; one job,
    /// scheduled again after each round.
    case refundPolicy = "refund_policy"

    /// Tell Apple a delivered purchase is finished (Finish Transaction; its subject is the
    /// transaction id): owed by every delivery that names its purchase, told once.
    case finishTransaction = "finish_transaction"

    /// Ask Google Play about a purchase token a real-time developer notification named (its
    /// subject): Google's notifications carry no state, so each one is a question to Google.
    case playRefresh = "play_refresh"

    /// Acknowledge a delivered Google Play purchase (its subject is the purchase token), and
    /// consume it when the game asked: owed before Google's three-day deadline, told once.
    case playAcknowledge = "play_acknowledge"

    /// Read one package's voided purchases (its subject is the package name): the backstop for
    /// refund notifications lost, as Apple's notification history is; scheduled again after each.
    case playVoidedSweep = "play_voided_sweep"

    /// Kinds whose work stays in the store (no call to Apple, Google or the game): bounded
    /// by the CPU and the database, not by waiting for another server to answer.
    public var staysInStore: Bool {
        switch self {
        case .applyNotifications, .expirySweep: true
        case .verify, .notificationHistory, .subscriptionCheck, .refundPolicy, .finishTransaction, .sendEvents, .playRefresh, .playAcknowledge,
            .playVoidedSweep:
            false
        }
    }

    /// Kinds that call Apple: held back while Apple is down. (Verifying a Play order asks
    /// Google, but a verify job cannot tell which store it asks until it runs.)
    public var callsApple: Bool {
        switch self {
        case .verify, .notificationHistory, .subscriptionCheck, .refundPolicy, .finishTransaction: true
        case .applyNotifications, .expirySweep, .sendEvents, .playRefresh, .playAcknowledge, .playVoidedSweep: false
        }
    }
}

/// A unit of the worker's work, kept in the store so that no crash forgets it. At most
/// one per kind and subject; a worker holds it under a lease until `leaseUntil`, after
/// which another may take it.
public struct Job: Sendable, Equatable {
    public var id: Int64
    public var kind: JobKind
    /// What the job is about, as the table keeps it; ``work`` reads it by its kind.
    public var subject: String
    /// The kind and subject typed; nil for a row whose subject its kind cannot have.
    public var work: JobWork? { JobWork(kind: kind, subject: subject) }
    /// When it may run next.
    public var dueAt: Millis
    /// How many times a worker took it; a finish must name the same count (the fence).
    public var attempts: Int64
    /// The worker holding it (`host:pid:tag`); nil when no worker does.
    public var leaseOwner: String?
    /// When the holder's lease ends; after that another worker may take the job.
    public var leaseUntil: Millis?
    /// Why the last run failed, in words.
    public var lastError: String?
    /// Set when it failed too often to try again; an operator may requeue it.
    public var deadAt: Millis?

    /// Every field, for the store's row decoding.
    package init(
        id: Int64, kind: JobKind, subject: String, dueAt: Millis, attempts: Int64, leaseOwner: String? = nil, leaseUntil: Millis? = nil,
        lastError: String? = nil, deadAt: Millis? = nil
    ) {
        self.id = id
        self.kind = kind
        self.subject = subject
        self.dueAt = dueAt
        self.attempts = attempts
        self.leaseOwner = leaseOwner
        self.leaseUntil = leaseUntil
        self.lastError = lastError
        self.deadAt = deadAt
    }
}

/// How the store's job queue stands, for `/metrics`, `/readyz` and the console's header.
public struct JobQueueStatus: Sendable, Equatable {
    /// Jobs due now that no worker holds.
    public var due: Int
    /// How long the queue has been behind: the oldest due job's time.
    public var oldestDueAt: Millis?
    /// Jobs a worker holds under a live lease.
    public var leased: Int
    /// Jobs that failed too often and wait for an operator.
    public var dead: Int

    package init(due: Int, oldestDueAt: Millis? = nil, leased: Int, dead: Int) {
        self.due = due
        self.oldestDueAt = oldestDueAt
        self.leased = leased
        self.dead = dead
    }
}
