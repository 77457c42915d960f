import OrderDomain

/// What an audit entry recorded, in the words support reads in the audit log and an order's
/// history: the order's move, then the particulars of the act.
public enum AuditWords {
    /// Nothing when the entry recorded no detail.
    public static func detail(_ detail: AuditDetail) -> String? {
        let move = detail.move.map { "\($0.from.rawValue) → \($0.to.rawValue)" }
        let said = detail.fact.map(fact)
        let parts = [move, said].compactMap(\.self).filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    static func fact(_ fact: AuditDetail.Fact) -> String {
        switch fact {
        case .submission(let id, let source, let state):
            "submission \(id) from \(source.rawValue)" + (state.map { " while \($0.rawValue)" } ?? "")
        case .nextTry(let at?, let ourSetup): "next try \(at.iso8601)" + (ourSetup ? "; needs operator" : "")
        case .nextTry(nil, _): "retry schedule exhausted: needs operator"
        case .needsOperator: "needs operator"
        case .storeConfirms(let transactionId): "Apple confirms transaction \(transactionId ?? "?")"
        case .deliveredUnconfirmed: "unconfirmed: Apple has not yet said which purchase paid; verifying on the R4 schedule"
        case .restoreOf(let holder): "restore of the purchase order \(holder) holds for the same account"
        case .verified(let transactionId, let environment):
            "transaction \(transactionId ?? "?") in \(environment?.rawValue ?? "unknown environment")"
        case .attached(let transactionId): "transaction \(transactionId)"
        case .imported(let placedAt, let accountId): "placed \(placedAt.iso8601) for \(accountId)"
        case .claimedByNoOrder: "no order claims this transaction"
        case .orderIs(let state, delivered: false): "order is \(state.rawValue), nothing was delivered"
        case .orderIs(let state, delivered: true): "order is \(state.rawValue)"
        case .partialRefund(let transactionId, let share, let takesBack, let units, let quantity):
            (takesBack ? "Apple refunded \(ShareWords.percent(share)) of transaction \(transactionId)" : "Apple reversed the partial refund")
                + ": \(takesBack ? "take" : "give") \(units) of \(quantity)"
        case .owner(let from, let to): "\(from ?? "(no owner)") → \(to)"
        case .unowned(let type, let status): "\(type) about a subscription no order holds: \(status.rawValue), owner unknown"
        case .olderFacts(let type): (type.map { "\($0): " } ?? "") + "older than the facts stored"
        case .facts(let status, let autoRenew, let source, let signedAt, let type):
            "\(status.rawValue), auto-renew \(autoRenew ? "on" : "off")"
                + (signedAt.map { " as Apple signed at \($0.iso8601) (\(type ?? source.rawValue))" } ?? " (\(source.rawValue))")
        case .extended(let days, let reasonCode, let requestId, let environment, let newEnd, let appleSaid):
            "\(days) days (reason code \(reasonCode), request \(requestId)\(environment.map { ", \($0.rawValue)" } ?? ""))"
                + (newEnd.map { ": now ends \($0.iso8601)" } ?? "") + apple(appleSaid)
        case .tokenRebound(let orderId, let owner, let appleSaid): "token \(orderId) (order of \(owner))" + apple(appleSaid)
        case .notification(let id, let type): "#\(id) \(type)"
        case .notificationReplayed(let type, let was): "\(type), was \(was.rawValue)"
        case .appleOrder(let appleOrderId, let transactions): "Apple's order \(appleOrderId) lists \(transactions.joined(separator: ", "))"
        case .consumptionAnswer(let transactionId, let answer, let appleSaid):
            "transaction \(transactionId): \(answer.summary)" + apple(appleSaid)
        case .appleFinished: "Apple told the purchase is finished (Finish Transaction)"
        case .backfill(let environment, let listed, let new, let unclaimed):
            "\(environment.rawValue): \(listed) listed, \(new) new, \(unclaimed) claimed by no order"
        case .appleAccount(let appTransactionId): "appTransactionId \(appTransactionId)"
        case .playAcknowledged(consumed: true): "Google told the consumable is consumed (acknowledged with it)"
        case .playAcknowledged(consumed: false): "Google told the purchase is acknowledged"
        case .playRefundAsked(let googleOrderId, let revoke):
            "Google asked to refund \(googleOrderId)" + (revoke ? " and take access back" : ", access kept")
        case .playAttached(let prefix): "Google Play purchase token \(prefix)… attached"
        case .playDeferred(let days, let end): "\(days) days: now ends \(end.iso8601)"
        case .playRevokeAsked(let prorated): "Google asked to revoke the subscription with a \(prorated ? "prorated" : "full") refund"
        case .note(let id): "note #\(id)"
        case .role(let role): role.rawValue
        case .product(let p):
            [
                p.app, "\(p.type.rawValue) \(p.displayName)", "\(p.priceMinor) \(p.currency)",
                p.subscriptionGroup.map { "group \($0) level \(p.groupLevel ?? 0)" }, p.durationDays.map { "\($0) days" },
                p.gives.isEmpty ? nil : "gives \(p.givesText)",
            ].compactMap(\.self).joined(separator: ", ")
        case .app(let app):
            [
                app.marketplace == .appStore ? nil : "Google Play package", app.name, app.appleAppId.map { "Apple id \($0)" },
                app.game == app.bundleId ? nil : "game \(app.game)",
            ].compactMap(\.self).joined(separator: ", ")
        case .jobRequeued(let kind, let subject, let lastError): "\(kind.rawValue) \(subject), last error: \(lastError ?? "none")"
        case .eventResent(let eventId, let type): "\(eventId) (\(type.rawValue))"
        case .eventDead(let eventId): "\(eventId): the game did not confirm it in time"
        case .seed(let orders): "\(orders) synthetic orders"
        case .anchorSignedAgain(let seq): "the head at entry \(seq) did not carry the key's MAC; signed again here"
        case .anchorSigningStarts(let fingerprint): "signing starts here with audit key \(fingerprint)"
        case .words(let words): words
        }
    }

    private static func apple(_ said: String?) -> String { said.map { "; Apple: \($0)" } ?? "" }

}
