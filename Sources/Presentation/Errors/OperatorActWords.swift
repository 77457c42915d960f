import OrderDomain

extension OperatorAct {
    /// The act as a refusal says it: "the viewer role may not grant orders".
    public var words: String {
        switch self {
        case .resolveDisputes: "resolve disputes"
        case .transferSubscription: "transfer subscription ownership"
        case .rebindToken: "rebind a subscription's token"
        case .answerRefundRequests: "answer refund requests"
        case .resendEvents: "resend events to the game"
        case .attachOrphans: "attach orphan transactions"
        case .importOrders: "import orders"
        case .revokeDeliveries: "revoke deliveries"
        case .grantOrders: "grant orders"
        case .grantRejectedOrder: "grant a rejected order"
        case .replayNotifications: "replay notifications"
        case .writeNotes: "write notes"
        case .requeueJobs: "requeue jobs"
        case .acknowledgePlayPurchase: "acknowledge a Google Play purchase"
        case .revokePlaySubscription: "revoke a Google Play subscription"
        case .deferSubscriptions: "defer subscriptions"
        case .attachPlayPurchase: "attach a Google Play purchase"
        case .refundPlayOrder: "refund a Google Play order"
        case .extendSubscriptions: "extend subscriptions"
        case .extendEverySubscriber: "extend every subscriber"
        case .changeCatalogue: "change the catalogue"
        case .addApps: "add apps"
        case .anchorAuditLog: "anchor the audit log"
        case .backfillFromApple: "backfill from Apple"
        case .addOperators: "add operators"
        case .reverifyOrders: "re-verify orders"
        case .reverifyRejectedOrder: "re-verify a rejected order"
        }
    }
}
