import OrderDomain

/// One order as people read it, said once for `iapdesk order show` and the console's
/// order screen: its fields, the store's verdict on the store's latest answer, a Google Play
/// order's purchase as Google reports it, its timeline.
/// In a store of several games (`showsApp`), which game the order is in comes first.
public enum OrderDetailPresentation {
    public static func sections(_ d: OrderDetail, storeIsProduction: Bool, showsApp: Bool = false, now: Millis = .now()) -> [DetailSection] {
        [
            DetailSection(nil, fields(d, storeIsProduction: storeIsProduction, showsApp: showsApp)), verdict(d),
            PlayPurchasePresentation.section(d.playPurchases, now: now), NotePresentation.section(d.notes), DetailSection("Timeline", timeline(d)),
        ]
        .compactMap { $0 }
    }

    static func fields(_ d: OrderDetail, storeIsProduction: Bool, showsApp: Bool) -> [DetailLine] {
        let o = d.order
        var lines = showsApp ? [DetailLine(label: "app", o.app ?? d.product?.app ?? "-")] : []
        // Apple's orders say their store only where Google's are beside them.
        if o.marketplace != .appStore || showsApp { lines.append(DetailLine(label: "store", o.marketplace.name)) }
        lines += [
            DetailLine(label: "order", o.orderId),
            DetailLine(label: "account", o.accountId),
            DetailLine(label: "product", o.productId + (d.product.map { " — \($0.displayName)" } ?? "")),
            DetailLine(label: "state", o.state.rawValue, tone: .state(o.state)),
        ]
        // R2 and the other marks an operator must not miss, one a line under the state.
        lines += o.badges(storeIsProduction: storeIsProduction).map { DetailLine(label: "", $0, tone: .alert) }
        lines += [
            DetailLine(label: "environment", o.environment?.rawValue ?? "-"),
            DetailLine(label: "transaction", (o.transactionId ?? "-") + "  original " + (o.originalTransactionId ?? "-")),
            DetailLine(label: "attempts", "\(o.attempts), next retry \(TimeText.full(o.nextRetryAt))"),
        ]
        // How the order's purchase was bought, and whether Apple was told it is finished.
        if let own = d.transactions.first(where: { $0.transaction.transactionId == o.transactionId }) {
            if let offer = own.transaction.offer { lines.append(DetailLine(label: "offer", PurchaseTermsWords.offer(offer))) }
            if let plan = PurchaseTermsWords.plan(own.transaction), own.transaction.commitment != nil {
                lines.append(DetailLine(label: "plan", plan))
            }
            if let finished = PurchaseTermsWords.finished(own, orderState: o.state) { lines.append(finished) }
        }
        if let error = ReasonWords.explained(o) { lines.append(DetailLine(label: "last error", error, tone: .alert)) }
        // What the order names, to go to: who holds the purchase (R7), who owns what it renews (R8).
        if let holder = d.replayHolder { lines.append(DetailLine(label: "held by", "order \(holder) holds this purchase", tone: .alert)) }
        if let owner = d.subscriptionOwner {
            lines.append(DetailLine(label: "owner", "\(owner) owns the subscription; \(o.accountId) submitted this renewal", tone: .state(.disputed)))
        }
        // The last hop: does the game know?
        if let told = d.gameTold { lines.append(DetailLine(label: "game told", told.text, tone: told.confirmed ? .plain : .alert)) }
        lines.append(DetailLine(label: "version", "\(o.version) by \(o.updatedBy) at \(TimeText.full(o.stateChangedAt))", tone: .muted))
        return lines
    }

    /// The store's own decision on Apple's latest answer, as it made it: the transaction it
    /// picked, each failed check (the passed ones counted: the receipt page lists them), and
    /// R8's reason; nil before Apple has answered.
    static func verdict(_ d: OrderDetail) -> DetailSection? {
        guard let verdict = d.latestVerdict else { return nil }
        let passed = verdict.checks.allSatisfy(\.passed)
        var lines = [
            DetailLine(
                "\(verdict.outcome.rawValue) → \(verdict.orderState.rawValue)" + (verdict.why.map { ": \(ReasonWords.sentence($0))" } ?? ""),
                tone: passed ? .plain : .failed)
        ]
        if let picked = verdict.pickedTransactionId { lines.append(DetailLine("picked transaction \(picked)", tone: .muted, depth: 1)) }
        let failed = verdict.checks.filter { !$0.passed }
        lines += failed.map { $0.line(depth: 1) }
        let passedCount = verdict.checks.count - failed.count
        if passedCount > 0 {
            lines.append(DetailLine("✓ \(passedCount) \(failed.isEmpty ? "" : "other ")check\(passedCount == 1 ? "" : "s") passed", tone: .passed, depth: 1))
        }
        if let ownership = ReasonWords.ownership(verdict) { lines.append(DetailLine("R8: \(ownership)", tone: .state(.disputed), depth: 1)) }
        return DetailSection("Verdict", lines)
    }

    /// Newest first: what happened last is what support asks about.
    static func timeline(_ d: OrderDetail) -> [DetailLine] {
        d.timeline.reversed().map { DetailLine(at: $0.at, $0.text, tone: tone(of: $0.kind)) }
    }

    static func tone(of kind: TimelineEvent.Kind) -> Tone {
        switch kind {
        case .attempt(outcome: .valid), .grant: .passed
        case .attempt(outcome: .final), .revoke, .notification(outcome: .rejected), .gameEvent(confirmed: false): .failed
        case .attempt(outcome: .retryable): .state(.verifyRetry)
        case .audit: .muted
        default: .plain
        }
    }
}
