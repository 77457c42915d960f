/// What an operator asks to do, as a permission check and its refusals name it (a role that
/// may not, a replica that only reads, a missing reason); Presentation says it in words.
public enum OperatorAct: Sendable, Equatable, CaseIterable {
    case resolveDisputes
    case transferSubscription
    case rebindToken
    case answerRefundRequests
    case resendEvents
    case attachOrphans
    case importOrders
    case revokeDeliveries
    case grantOrders
    case grantRejectedOrder
    case replayNotifications
    case writeNotes
    case requeueJobs
    case acknowledgePlayPurchase
    case revokePlaySubscription
    case deferSubscriptions
    case attachPlayPurchase
    case refundPlayOrder
    case extendSubscriptions
    case extendEverySubscriber
    case changeCatalogue
    case addApps
    case anchorAuditLog
    case backfillFromApple
    case addOperators
    case reverifyOrders
    case reverifyRejectedOrder
}
