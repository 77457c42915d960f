import OrderDomain

/// One original transaction in time (the x-ray): its periods, the orders that claimed them,
/// Apple's notifications, R8's owners, what the game was told, extensions and every audit
/// entry, merged oldest first. `iapdesk subscription xray` and `:xray` print this.
public enum XRayPresentation {
    public static func sections(_ x: XRay) -> [DetailSection] {
        let d = x.detail
        var timeline: [(at: Millis?, order: Int, line: DetailLine)] = []
        func add(_ at: Millis?, _ kind: String, _ text: String, _ tone: Tone = .plain) {
            timeline.append((at, timeline.count, DetailLine(at: at, "\(kind.padding(toLength: 12, withPad: " ", startingAt: 0)) \(text)", tone: tone)))
        }
        for t in d.chain {
            add(
                t.transaction.purchaseDate, "apple",
                "period \(t.transaction.transactionId) \(t.transaction.productId)"
                    + (t.transaction.expiresDate.map { " until \(TimeText.full($0))" } ?? "") + " (order \(t.orderId ?? "none"))")
            if let cancelled = t.transaction.cancellationDate { add(cancelled, "apple", "\(t.transaction.transactionId) refunded or revoked", .failed) }
        }
        for o in d.orders { add(o.createdAt, "order", "\(o.orderId) placed by \(o.accountId); now \(o.state.rawValue)", .state(o.state)) }
        for n in d.notifications {
            add(
                n.facts.signedDate, "notification",
                "#\(n.id) \(n.facts.kind): \(n.outcome.rawValue)" + (NotificationWords.detail(n).map { " — \($0)" } ?? ""),
                .muted)
        }
        for e in d.ownership {
            add(
                e.at, "owner", "\(e.fromAccount ?? "(none)") → \(e.toAccount) by \(e.decidedBy.words): \(OwnershipWords.said(e))",
                e.needsReview ? .state(.disputed) : .plain)
        }
        for e in x.events {
            add(e.createdAt, "game", "\(e.type.rawValue) \(e.summary)" + (e.confirmedAt.map { ", confirmed \(TimeText.full($0))" } ?? ", not confirmed"))
        }
        for e in d.extensions { add(e.claimedAt, "extension", "+\(e.days) days by \(e.operatorName): \(e.outcome.rawValue)") }
        for a in x.audit { add(a.at, "audit", "\(a.action.rawValue) by \(a.actor) on \(a.target)" + (ReasonWords.audited(a).map { ": \($0)" } ?? "")) }
        let ordered = timeline.sorted { ($0.at ?? .min, $0.order) < ($1.at ?? .min, $1.order) }.map(\.line)
        return [DetailSection("Original transaction \(d.chain.first?.transaction.originalTransactionId ?? "") in time", ordered)]
    }
}
