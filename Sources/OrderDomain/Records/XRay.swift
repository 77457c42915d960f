/// Everything the store knows about one original transaction, for one timeline: the
/// subscription's detail, what the game was told about its orders, and the audit entries on
/// it and its orders.
public struct XRay: Sendable {
    public var detail: SubscriptionDetail
    public var events: [GameEvent]
    public var audit: [AuditEntry]

    package init(detail: SubscriptionDetail, events: [GameEvent], audit: [AuditEntry]) {
        self.detail = detail
        self.events = events
        self.audit = audit
    }
}
