import OrderStore

/// `iapdesk order show`: an order and its timeline as text.
enum OrderReport {
    static func render(_ d: OrderDetail) -> String {
        let o = d.order
        var lines = [Output.keyValues([
            ("order", Output.safe(o.orderId)),
            ("account", Output.safe(o.accountId)),
            ("product", Output.safe(o.productId) + (d.product.map { " — " + Output.safe($0.displayName) } ?? "")),
            ("state", o.state.rawValue + (o.needsOperator ? "  (needs operator: retry schedule exhausted)" : "") + (o.replayFlag ? "  (REPLAY)" : "")),
            ("version", "\(o.version) by \(Output.safe(o.updatedBy)) at \(Output.time(o.stateChangedAt))"),
            ("environment", o.environment?.rawValue ?? "-"),
            ("transaction", "\(Output.safe(o.transactionId)) (original \(Output.safe(o.originalTransactionId)))"),
            ("attempts", "\(o.attempts), next retry \(Output.time(o.nextRetryAt))"),
            ("last error", Output.safe(o.lastError)),
        ])]
        lines.append("\ntimeline:")
        var events: [(Millis, String)] = []
        events.append((o.createdAt, "order placed"))
        for s in d.submissions {
            events.append((s.receivedAt, "receipt #\(s.id) from \(s.source)" + (s.claimedTransactionId.map { ", claims transaction \(Output.safe($0))" } ?? "")))
        }
        for a in d.attempts {
            let status = a.appleStatus.map { "status \($0) (\(a.statusMeaning ?? ""))" } ?? "no status"
            events.append((a.at, "verify \(a.method) \(a.environment ?? "-"): \(a.outcome), \(status), HTTP \(a.httpStatus.map(String.init) ?? "-"), \(a.latencyMs) ms" + (a.reason.map { " — \(Output.safe($0))" } ?? "")))
        }
        for g in d.grants {
            events.append((g.grantedAt, "granted (\(g.kind)) by \(Output.safe(g.operatorName))" + (g.reason.map { ": \(Output.safe($0))" } ?? "")))
            if let revoked = g.revokedAt {
                events.append((revoked, "grant revoked by \(Output.safe(g.revokedBy)): \(Output.safe(g.revokeReason))"))
            }
        }
        for e in d.audit {
            events.append((e.at, "audit #\(e.seq) \(e.action) by \(Output.safe(e.actor)) (\(e.role)): \(Output.safe(e.detail))" + (e.reason.map { " — \(Output.safe($0))" } ?? "")))
        }
        for (at, text) in events.sorted(by: { $0.0 < $1.0 }) {
            lines.append("  \(Output.time(at))  \(text)")
        }
        return lines.joined(separator: "\n")
    }
}
