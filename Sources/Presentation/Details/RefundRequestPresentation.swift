import OrderDomain

/// Apple's refund requests as support reads them, said once for `iapdesk refunds` and the
/// console: the queue by deadline with its countdown, and one request with the evidence an
/// answer rests on (the purchase, its delivery, the game's confirmation, the account's
/// refunds) and the answers sent.
public enum RefundRequestPresentation {
    /// "due in 2h10m", "due in 12m", "overdue 3h": how long Apple still waits.
    public static func countdown(_ deadline: Millis?, now: Millis) -> String {
        guard let deadline else { return "no deadline" }
        let minutes = abs(deadline - now) / 60_000
        let span = minutes >= 60 ? "\(minutes / 60)h\(String(format: "%02d", minutes % 60))m" : "\(minutes)m"
        return deadline >= now ? "due in \(span)" : "overdue \(span)"
    }

    /// Where a request stands: the answer Apple took, the last refusal, or waiting.
    public static func status(_ r: RefundRequest, now: Millis) -> (text: String, tone: Tone) {
        if let decision = r.decision {
            let said = r.sent.map { " after \($0.operatorName)'s answer" } ?? " without an answer from us"
            return decision.refunded
                ? ("Apple refunded it \(TimeText.full(decision.at))\(said)", .alert)
                : ("Apple declined the refund \(TimeText.full(decision.at))\(said)", .passed)
        }
        if let sent = r.sent { return ("answered by \(sent.operatorName): \(sent.answer?.summary ?? "?")", .passed) }
        if let last = r.answers.last, last.outcome == .failed { return ("Apple refused: \(last.appleError ?? "?")", .alert) }
        if let last = r.answers.last, last.outcome == .sending { return ("\(last.operatorName) is sending an answer", .muted) }
        return r.isOpen(at: now) ? ("waiting for an answer", .alert) : ("Apple decided without an answer", .alert)
    }

    /// The open requests, or with `all` every one Apple sent (answered, refused, missed).
    public static func queue(now: Millis, all: Bool = false) -> Listing<RefundRequest> {
        Listing(
            title: all ? "Refund requests, all (by deadline)" : "Refund requests (soonest deadline first)",
            empty: all ? "Apple has sent no refund request." : "No refund request waits for an answer.",
            columns: [
                ListColumn("ID", width: 6) { .count($0.notification.id, .muted) },
                ListColumn("DUE", width: 14) { r in Cell(countdown(r.deadline, now: now), r.isOpen(at: now) ? .alert : .muted) },
                ListColumn("TRANSACTION", width: 17) { Cell($0.transactionId) },
                ListColumn("ORDER", width: 14) { Cell($0.order?.orderId ?? "no order") },
                ListColumn("ACCOUNT", width: 10) { Cell($0.order?.accountId) },
                ListColumn("PRODUCT", width: 11) { Cell($0.order?.productId ?? $0.notification.facts.transaction?.productId) },
                ListColumn("STATUS", width: 12, flexible: true) { r in
                    let s = status(r, now: now)
                    return Cell(s.text, s.tone)
                },
            ])
    }

    public static func sections(_ r: RefundRequest, now: Millis) -> [DetailSection] {
        let t = r.notification.facts.transaction
        let s = status(r, now: now)
        var fields = [
            DetailLine(
                label: "asked", "\(TimeText.full(r.notification.facts.signedDate)): \(r.notification.facts.consumptionRequestReason ?? "no reason given")"),
            DetailLine(label: "deadline", "\(TimeText.full(r.deadline)) (\(countdown(r.deadline, now: now)))", tone: r.isOpen(at: now) ? .alert : .muted),
            DetailLine(label: "status", s.text, tone: s.tone),
            DetailLine(
                label: "transaction", "\(t?.transactionId ?? "-") \(t?.productId ?? "") × \(t?.quantity ?? 1), bought \(TimeText.full(t?.purchaseDate))"),
        ]
        if let order = r.order {
            fields += [
                DetailLine(label: "order", "\(order.orderId) for \(order.accountId): \(order.state.rawValue)", tone: .state(order.state)),
                DetailLine(label: "delivered", r.deliveredAt.map { TimeText.full($0) } ?? "never"),
                DetailLine(
                    label: "game told", r.gameConfirmedAt.map { "confirmed \(TimeText.full($0))" } ?? "not confirmed",
                    tone: r.gameConfirmedAt == nil ? .alert : .plain),
                DetailLine(
                    label: "game says",
                    r.consumption.map { "\($0.summary) (\($0.client), \(TimeText.full($0.reportedAt)))" } ?? "no use reported by the game",
                    tone: r.consumption == nil ? .muted : .plain),
                DetailLine(label: "past refunds", "\(r.accountRefunds) order(s) of \(order.accountId) refunded before"),
                DetailLine(
                    label: "Apple Account",
                    r.sameAppleAccount.isEmpty
                        ? "no other game account seen on it"
                        : "also plays " + r.sameAppleAccount.map { "\($0.accountId) (\($0.refunds) refunded)" }.joined(separator: ", "),
                    tone: r.sameAppleAccount.contains { $0.refunds > 0 } ? .alert : .plain),
            ]
        } else {
            fields.append(DetailLine(label: "order", "no order claims this transaction: nothing was delivered through iapdesk", tone: .alert))
        }
        let answers = r.answers.map { a in
            DetailLine(
                at: a.answeredAt ?? a.claimedAt,
                "\(a.outcome.rawValue) by \(a.operatorName): \(a.answer?.summary ?? "?") — \(a.reason)" + (a.appleError.map { " — Apple: \($0)" } ?? ""),
                tone: a.outcome == .sent ? .passed : a.outcome == .failed ? .alert : .muted)
        }
        return [DetailSection(nil, fields), DetailSection("Answers sent to Apple", answers)]
    }
}

extension ConsumptionReport {
    /// "40 % used, played 1 to 6 hours, player consented".
    public var summary: String {
        "\((Double(consumptionPercentage) / 1000).formatted()) % used" + (playTime.map { ", played \($0.words)" } ?? "")
            + (customerConsented ? ", player consented" : ", no consent")
    }
}
