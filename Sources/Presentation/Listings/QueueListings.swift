import OrderDomain

/// What waits on someone, as rows: orphan transactions, Google Play acknowledgements owed,
/// the worker's jobs, events the game has not confirmed, notifications from the stores, and
/// the audit log.
public enum QueueListings {
    public static func orphans() -> Listing<StoredTransaction> {
        Listing(
            title: "Orphans (purchases a store knows, no order claims)", empty: "No orphan transactions.",
            columns: [
                ListColumn("TRANSACTION", width: 17) { Cell($0.transaction.transactionId) },
                ListColumn("STORE", width: 5, optional: true) { Cell($0.transaction.marketplace.shortName, .muted) },
                ListColumn("ORIGINAL", width: 17) { Cell($0.transaction.originalTransactionId, .muted) },
                ListColumn("PRODUCT", width: 11, flexible: true) { Cell($0.transaction.productId) },
                ListColumn("PURCHASED", width: 16) { .time($0.transaction.purchaseDate) },
                ListColumn("ENV", width: 10) { Cell($0.environment?.rawValue) },
                ListColumn("REFUNDED", width: 16, optional: true) { .time($0.transaction.cancellationDate, .alert) },
            ])
    }

    /// Google Play purchases paid and not yet acknowledged, soonest deadline first: Google
    /// refunds each one left so past its deadline. `now` says the time left.
    public static func acknowledgements(now: Millis) -> Listing<OwedAcknowledgement> {
        Listing(
            title: "Google Play: acknowledgements owed (Google refunds at the deadline)", empty: "Every paid Google Play purchase is acknowledged.",
            columns: [
                ListColumn("ACK BY", width: 16) { .time($0.purchase.acknowledgeBy, .alert) },
                ListColumn("LEFT", width: 7) { owed in
                    let left = (owed.purchase.acknowledgeBy ?? now) - now
                    return left > 0 ? Cell(.age(left), left < .hours(24) ? .alert : .plain) : Cell("PASSED", .alert)
                },
                ListColumn("ORDER", width: 14) { Cell($0.orderId ?? "no order", $0.orderId == nil ? .muted : .plain) },
                ListColumn("GOOGLE ORDER", width: 24, optional: true) { Cell($0.purchase.facts.orderId, .muted) },
                ListColumn("PRODUCT", width: 11) { Cell($0.purchase.facts.productId) },
                ListColumn("TOKEN", width: 12, flexible: true) { Cell($0.purchase.facts.purchaseToken, .muted) },
            ])
    }

    public static func jobs() -> Listing<Job> {
        Listing(
            title: "Worker jobs (dead first)", empty: "No jobs: nothing is owed to Apple or waiting to be applied.",
            columns: [
                ListColumn("ID", width: 7) { .count($0.id, .muted) },
                ListColumn("KIND", width: 13) { Cell($0.kind.rawValue) },
                ListColumn("SUBJECT", width: 18) { Cell($0.subject) },
                ListColumn("DUE", width: 11) { .time($0.dueAt) },
                ListColumn("TRIES", width: 5) { .count($0.attempts) },
                ListColumn("STATE / LAST ERROR", width: 12, flexible: true) { job in
                    Cell(job.stateLabel() + (job.lastError.map { " · \($0)" } ?? ""), job.deadAt != nil ? .alert : .muted)
                },
            ])
    }

    /// The events the game has not confirmed; with `order`, every event of that order.
    public static func undeliveredEvents(order: String? = nil) -> Listing<GameEvent> {
        Listing(
            title: order.map { "Events of order \($0) (oldest first)" } ?? "Events the game has not confirmed (oldest first)",
            empty: order.map { "The game was told nothing about \($0)." } ?? "Nothing owed to the game: every event is confirmed.",
            columns: [
                ListColumn("#", width: 6, optional: true) { .count($0.id, .muted) },
                // `iapdesk events resend` takes it; the console opens the order instead.
                ListColumn("EVENT", width: 24, optional: true) { Cell($0.eventId, .muted) },
                ListColumn("WRITTEN", width: 11) { .time($0.createdAt) },
                ListColumn("TYPE", width: 10) { Cell($0.type.rawValue) },
                ListColumn("ORDER", width: 14) { Cell($0.orderId) },
                ListColumn("ACCOUNT", width: 10) { Cell($0.accountId) },
                ListColumn("TRIES", width: 5) { .count($0.attempts) },
                ListColumn("DELIVERY", width: 12, flexible: true) { Cell($0.deliveryText, $0.deadAt != nil ? .alert : .muted) },
            ])
    }

    /// Apple's notifications; with `purchase` (an original transaction id), those about it.
    /// Both stores' notifications, or `store`'s; with `purchase`, those about one original transaction.
    public static func notifications(purchase: String? = nil, store: Marketplace? = nil) -> Listing<NotificationRecord> {
        let from = store.map(\.company) ?? "Apple and Google"
        return Listing(
            title: purchase.map { "Notifications about \($0) (newest first)" } ?? "Notifications from \(from) (newest first)",
            empty: purchase.map { "Nothing was sent about \($0)." } ?? "No notification has come from \(from) yet (iapdesk serve receives them).",
            columns: [
                ListColumn("ID", width: 6, optional: true) { .count($0.id, .muted) },
                ListColumn("RECEIVED", width: 11) { .time($0.receivedAt) },
                ListColumn("VIA", width: 6, optional: true) { Cell($0.via.rawValue, .muted) },
                ListColumn("STORE", width: 5, optional: true) { Cell($0.marketplace.shortName, .muted) },
                ListColumn("TYPE", width: 18) { Cell($0.facts.kind) },
                ListColumn("ENV", width: 10) { Cell($0.endpoint.rawValue, .muted) },
                ListColumn("TRANSACTION", width: 17) { Cell($0.facts.transaction?.transactionId) },
                ListColumn("OUTCOME", width: 10) { n in Cell(n.outcome.rawValue, n.outcome == .rejected ? .alert : n.outcome == .applied ? .plain : .muted) },
                ListColumn("DETAIL", width: 8, flexible: true) { Cell(NotificationWords.detail($0), .muted) },
            ])
    }

    /// The grant rows an audit entry records, as support reads them.
    static func grants(_ ids: ClosedRange<Int64>) -> String {
        ids.lowerBound == ids.upperBound ? "grant #\(ids.lowerBound)" : "grants #\(ids.lowerBound)–#\(ids.upperBound)"
    }

    public static func audit() -> Listing<AuditEntry> {
        Listing(
            title: "Audit log (newest first)", empty: "The audit log is empty.",
            columns: [
                ListColumn("SEQ", width: 6, optional: true) { .count($0.seq, .muted) },
                // Month, day and minute keep room for the reason, which is what support reads here.
                ListColumn("WHEN", width: 11) { .time($0.at) },
                ListColumn("WHO", width: 8) { Cell($0.actor) },
                ListColumn("ROLE", width: 7, optional: true) { Cell($0.role.rawValue, .muted) },
                ListColumn("ACTION", width: 16) { Cell($0.action.rawValue) },
                ListColumn("TARGET", width: 19) { Cell($0.target.description) },  // "order:" and a 13-character order id
                ListColumn("REASON / DETAIL", width: 12, flexible: true) { e in
                    let why = ReasonWords.audited(e)
                    return Cell(
                        [why, AuditWords.detail(e.detail), e.grants.map(Self.grants)].compactMap(\.self).joined(separator: " · "),
                        why == nil ? .muted : .plain)
                },
            ])
    }
}

extension Job {
    /// Where the job stands at `now`, as the CLI and the console both word it.
    public func stateLabel(now: Millis = .now()) -> String {
        if deadAt != nil { return "DEAD" }
        if let leaseUntil, leaseUntil >= now { return "running (\(leaseOwner ?? "?"))" }
        return "waiting"
    }
}
