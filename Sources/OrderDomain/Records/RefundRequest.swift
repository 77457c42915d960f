/// Where an action an operator asked of Apple stands (an answer to a refund request, an
/// extension).
public enum AppleActionOutcome: String, Sendable, Codable, CaseIterable {
    /// Claimed by an operator; the call to Apple is in flight.
    case sending
    /// Apple took it.
    case sent
    /// Apple refused it or could not be reached; it may be asked again.
    case failed
    /// Its sender vanished mid-call (killed): it no longer blocks another.
    case abandoned
}

/// One answer to a refund request: who, why, what, and what Apple said.
public struct RefundAnswer: Sendable, Equatable {
    public var id: Int64
    public var notificationId: Int64
    public var transactionId: String
    public var operatorName: String
    public var reason: String
    public var answer: ConsumptionAnswer?
    public var claimedAt: Millis
    public var outcome: AppleActionOutcome
    public var answeredAt: Millis?
    /// Apple's error, in words, when it refused the answer.
    public var appleError: String?

    package init(
        id: Int64, notificationId: Int64, transactionId: String, operatorName: String, reason: String, answer: ConsumptionAnswer? = nil, claimedAt: Millis,
        outcome: AppleActionOutcome, answeredAt: Millis? = nil, appleError: String? = nil
    ) {
        self.id = id
        self.notificationId = notificationId
        self.transactionId = transactionId
        self.operatorName = operatorName
        self.reason = reason
        self.answer = answer
        self.claimedAt = claimedAt
        self.outcome = outcome
        self.answeredAt = answeredAt
        self.appleError = appleError
    }
}

/// A game account that shares an Apple Account with another, and its refunded orders.
public struct SiblingAccount: Sendable, Equatable {
    public var accountId: String
    public var refunds: Int

    public init(accountId: String, refunds: Int) {
        self.accountId = accountId
        self.refunds = refunds
    }
}

/// Apple's decision on a refund it was asked for.
public struct RefundDecision: Sendable, Equatable {
    public var refunded: Bool
    public var at: Millis

    package init(refunded: Bool, at: Millis) {
        self.refunded = refunded
        self.at = at
    }
}

/// A refund request Apple asked about (CONSUMPTION_REQUEST), with what support needs to
/// answer it: the purchase, its order and delivery, and the answers so far.
public struct RefundRequest: Sendable, Equatable {
    public var notification: NotificationRecord
    /// Apple's deadline: 12 hours after it signed the request.
    public var deadline: Millis?
    public var order: Order?
    /// When the order was delivered and whether the game confirmed being told.
    public var deliveredAt: Millis?
    public var gameConfirmedAt: Millis?
    /// Orders of the same game account Apple refunded before.
    public var accountRefunds: Int
    /// What the game last reported of the purchase's use.
    public var consumption: ConsumptionReport?
    /// Other game accounts the same Apple Account bought with (by `appTransactionId`), each
    /// with how many of its orders were refunded: one player asking again under another name.
    public var sameAppleAccount: [SiblingAccount] = []
    /// Oldest first.
    public var answers: [RefundAnswer]
    /// What Apple decided after the request: a REFUND or a REFUND_DECLINED of its transaction.
    public var decision: RefundDecision?

    public var transactionId: String? { notification.facts.transaction?.transactionId }
    /// The answer Apple took, if any.
    public var sent: RefundAnswer? { answers.last { $0.outcome == .sent } }
    /// Open: not answered, not decided, and Apple still waits for an answer at `now`.
    public func isOpen(at now: Millis) -> Bool { sent == nil && decision == nil && (deadline ?? .max) >= now }

    package init(
        notification: NotificationRecord, deadline: Millis? = nil, order: Order? = nil, deliveredAt: Millis? = nil, gameConfirmedAt: Millis? = nil,
        accountRefunds: Int, consumption: ConsumptionReport? = nil, sameAppleAccount: [SiblingAccount] = [], answers: [RefundAnswer],
        decision: RefundDecision? = nil
    ) {
        self.notification = notification
        self.deadline = deadline
        self.order = order
        self.deliveredAt = deliveredAt
        self.gameConfirmedAt = gameConfirmedAt
        self.accountRefunds = accountRefunds
        self.consumption = consumption
        self.sameAppleAccount = sameAppleAccount
        self.answers = answers
        self.decision = decision
    }
}
