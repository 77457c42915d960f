import OrderDomain

/// One auto-renewable subscription as people read it, said once for `iapdesk subscription
/// show` and the console's subscription screen: its owner and how that was decided, the
/// chain with who submitted each transaction, the owner history, Apple's notifications and
/// the orders that claimed it.
public enum SubscriptionPresentation {
    /// Nil when no subscription has that original transaction id. The orders carry the marks
    /// of the order list (`!`, REPLAY, SBX in a production store).
    public static func sections(_ d: SubscriptionDetail, storeIsProduction: Bool) -> [DetailSection]? {
        guard let s = d.subscription else { return nil }
        var fields = [
            s.ownerAccount.map { DetailLine(label: "owner", "\($0) since \(TimeText.full(s.ownerSince)), decided by \(s.decidedBy.words)") }
                ?? DetailLine(label: "owner", "unknown: no order holds it yet (Apple told of it first)", tone: .state(.disputed)),
            DetailLine(label: "product", s.productId),
            DetailLine(label: "status", "\(s.status.rawValue), auto-renew \(s.autoRenew ? "on" : "off"), expires \(TimeText.full(s.expiresAt))"),
            DetailLine(label: "facts", s.factsSource.map { "from \($0.rawValue) at \(TimeText.full(s.factsAsOf))" } ?? "not yet from Apple", tone: .muted),
        ]
        // The plan and the renewal's terms, as Apple signed them last.
        let latest = d.chain.map(\.transaction).max { ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId) }
        if let plan = latest.flatMap(PurchaseTermsWords.plan) { fields.append(DetailLine(label: "plan", plan)) }
        if let commitment = PurchaseTermsWords.commitmentRenewal(s.renewal, latest: latest) {
            fields.append(DetailLine(label: "commitment", commitment, tone: s.renewal.commitment?.renews == false ? .alert : .plain))
        }
        fields += PurchaseTermsWords.renewalLines(s)
        if d.appleAccountPlayers.count > 1 {
            // The heart of an R8 dispute: the accounts claiming it are one Apple Account's.
            fields.append(
                DetailLine(
                    label: "Apple Account",
                    "the same one bought for "
                        + d.appleAccountPlayers.map { "\($0.accountId)" + ($0.refunds > 0 ? " (\($0.refunds) refunded)" : "") }
                        .joined(separator: ", "), tone: .state(.disputed)))
        }
        if let last = d.ownership.last {
            fields.append(
                DetailLine(
                    label: "R8 verdict", "\(last.verdict.rawValue): \(OwnershipWords.said(last))" + (last.needsReview ? "  (to review)" : ""),
                    tone: .state(.disputed)))
        }
        let chain = d.chain.map { t in
            var text = t.transaction.transactionId
            if let expires = t.transaction.expiresDate { text += " until \(TimeText.full(expires))" }
            if let payment = t.transaction.commitment?.payment, let payments = t.transaction.commitment?.payments { text += "  payment \(payment)/\(payments)" }
            if let offer = t.transaction.offer { text += "  \(PurchaseTermsWords.offer(offer))" }
            text += "  submitted by \(t.submittedBy ?? "-")  order \(t.orderId ?? "-")"
            if let cancelled = t.transaction.cancellationDate { text += "  CANCELLED \(TimeText.full(cancelled))" }
            return DetailLine(at: t.transaction.purchaseDate, text, tone: t.transaction.cancellationDate == nil ? .plain : .failed)
        }
        let owners = d.ownership.map { e in
            DetailLine(
                at: e.at,
                "\(e.fromAccount ?? "(none)") → \(e.toAccount) by \(e.decidedBy.words): \(e.verdict.rawValue) — \(OwnershipWords.said(e))"
                    + (e.orderId.map { "  (order \($0), submitted by \(e.submittedBy))" } ?? ""), tone: e.needsReview ? .state(.disputed) : .plain)
        }
        let notifications = d.notifications.map { n in
            DetailLine(
                at: n.facts.signedDate,
                "#\(n.id) \(n.facts.kind) \(n.facts.transaction?.transactionId ?? "")  \(n.outcome.rawValue)"
                    + (NotificationWords.detail(n).map { " — \($0)" } ?? ""), tone: n.outcome == .rejected ? .failed : .muted)
        }
        let orders = d.orders.map { o in
            DetailLine(
                at: o.createdAt, "\(o.orderId)  \(o.accountId)  \(OrderListings.stateText(o, storeIsProduction: storeIsProduction))", tone: .state(o.state))
        }
        let extensions = d.extensions.map { e in
            var text = "+\(e.days) days (\(ExtensionRule.reasonCodeWords(of: e.reasonCode))) by \(e.operatorName): \(e.outcome.rawValue)"
            if let end = e.newExpiry { text += ", now ends \(TimeText.full(end))" }
            if let error = e.appleError { text += " — Apple: \(error)" }
            return DetailLine(at: e.claimedAt, text + " — \(e.reason)", tone: e.outcome == .sent ? .passed : e.outcome == .failed ? .failed : .muted)
        }
        return [
            DetailSection(nil, fields),
            DetailSection("Transactions (who submitted each)", chain),
            DetailSection("Owner history", owners),
            DetailSection("Notifications from Apple", notifications),
            DetailSection("Orders", orders),
        ] + (extensions.isEmpty ? [] : [DetailSection("Renewal date extensions asked of Apple", extensions)])
    }
}
