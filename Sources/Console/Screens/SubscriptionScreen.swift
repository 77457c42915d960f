import OrderStore
import Terminal

/// `o` / `:otid ID`: one auto-renewable subscription by original transaction id: its owner
/// and how that was decided, the chain of transactions with who submitted each, the owner
/// history with each R8 verdict and why. `t` transfers ownership, with a reason; Enter lists
/// the orders that claimed it.
public final class SubscriptionScreen: ConsoleScreen {
    let originalTransactionId: String
    private var detail: SubscriptionDetail?
    private var text = ScrollingText()

    public init(originalTransactionId: String) { self.originalTransactionId = originalTransactionId }

    public var title: String { "Subscription \(originalTransactionId)" }

    public func bindings(_ session: ConsoleSession) -> [KeyBinding] {
        var keys = [KeyBinding(.enter, action: "its orders"), KeyBinding(.escape, action: "back")]
        if !session.readOnly, detail?.subscription != nil { keys.append(KeyBinding(.character("t"), action: "transfer")) }
        return keys + [KeyBinding(.up, .down, action: "scroll"), KeyBinding(.character("?"), action: "help")]
    }

    public func load(_ session: ConsoleSession) async throws {
        detail = try await session.store.subscription(originalTransactionId)
    }

    func lines(theme: Theme) -> [(String, Style)] {
        guard let d = detail, let s = d.subscription else { return [("No subscription has original transaction id \(originalTransactionId).", theme[.muted])] }
        var lines: [(String, Style)] = [
            ("owner        \(s.ownerAccount) since \(Chrome.time(s.ownerSince)), decided by \(s.decidedBy)", theme[.row]),
            ("product      \(s.productId)", theme[.row]),
            ("status       \(s.status.rawValue), auto-renew \(s.autoRenew ? "on" : "off"), expires \(Chrome.time(s.expiresAt))", theme[.row]),
            ("facts        " + (s.factsSource.map { "from \($0.rawValue) at \(Chrome.time(s.factsAsOf))" } ?? "not yet from Apple"), theme[.muted]),
        ]
        if let last = d.ownership.last {
            lines.append(("R8 verdict   \(last.verdict.rawValue): \(last.reason)" + (last.needsReview ? "  (to review)" : ""), theme[.state(.disputed)]))
        }
        lines.append(("", theme[.row]))
        lines.append(("Transactions (who submitted each)", theme[.tableHeader]))
        for t in d.chain {
            var line = "\(t.transaction.transactionId)  \(Chrome.time(t.transaction.purchaseDate))"
            if let expires = t.transaction.expiresDate { line += " → \(Chrome.time(expires))" }
            line += "  submitted by \(t.submittedBy ?? "-")  order \(t.orderId ?? "-")"
            if let cancelled = t.transaction.cancellationDate { line += "  CANCELLED \(Chrome.time(cancelled))" }
            lines.append((line, t.transaction.cancellationDate == nil ? theme[.row] : theme[.checkFailed]))
        }
        lines.append(("", theme[.row]))
        lines.append(("Owner history", theme[.tableHeader]))
        for e in d.ownership {
            lines.append(("\(Chrome.time(e.at))  \(e.fromAccount ?? "(none)") → \(e.toAccount) by \(e.decidedBy): \(e.verdict.rawValue) — \(e.reason)"
                          + (e.orderId.map { "  (order \($0), submitted by \(e.submittedBy))" } ?? ""), theme[.row]))
        }
        lines.append(("", theme[.row]))
        lines.append(("Notifications from Apple", theme[.tableHeader]))
        for n in d.notifications {
            lines.append(("\(Chrome.time(n.facts.signedDate))  #\(n.id) \(n.facts.kind) \(n.facts.transaction?.transactionId ?? "")  \(n.outcome.rawValue)"
                          + ((n.rejection ?? n.detail).map { " — \($0)" } ?? ""), n.outcome == .rejected ? theme[.checkFailed] : theme[.muted]))
        }
        lines.append(("", theme[.row]))
        lines.append(("Orders", theme[.tableHeader]))
        for o in d.orders {
            lines.append(("\(o.orderId)  \(o.accountId)  \(o.state.rawValue)  \(Chrome.time(o.createdAt))", theme[.state(o.state)]))
        }
        return lines
    }

    public func render(into screen: inout ScreenBuffer, area: Area, theme: Theme) {
        text.draw(lines(theme: theme), into: &screen, area: area)
    }

    public func handle(_ key: Key, session: ConsoleSession, area: Area) async throws -> ScreenAction {
        if key == .enter { return .push(OrdersScreen.ofSubscription(originalTransactionId)) }
        if key == .character("t"), !session.readOnly, let s = detail?.subscription {
            let (store, actor, otid) = (session.store, session.actor, originalTransactionId)
            return .dialog(Dialog(
                title: "Transfer subscription \(otid)",
                lines: ["Owner now: \(s.ownerAccount) (decided by \(s.decidedBy)).",
                        "The new owner gets the subscription's renewals from now on; the change is an ownership event and an audit entry with your reason."],
                inputs: ["To account"], confirm: "transfer"
            ) { values in
                try await store.transferOwnership(originalTransactionId: otid, to: values[0], by: actor, reason: values[1])
                return "subscription \(otid) now belongs to \(values[0])"
            })
        }
        _ = text.handle(key, area: area)
        return .none
    }
}
