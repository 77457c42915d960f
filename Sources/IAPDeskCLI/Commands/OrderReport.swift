import OrderStore

/// `iapdesk order show`: an order and its timeline as text.
enum OrderReport {
    static func render(_ d: OrderDetail, storeIsProduction: Bool) -> String {
        let o = d.order
        var lines = [Output.keyValues([
            ("order", Output.safe(o.orderId)),
            ("account", Output.safe(o.accountId)),
            ("product", Output.safe(o.productId) + (d.product.map { " — " + Output.safe($0.displayName) } ?? "")),
            ("state", ([o.state.rawValue] + o.badges(storeIsProduction: storeIsProduction).map { Output.safe($0) }).joined(separator: "  ")),
            ("version", "\(o.version) by \(Output.safe(o.updatedBy)) at \(Output.time(o.stateChangedAt))"),
            ("environment", o.environment?.rawValue ?? "-"),
            ("transaction", "\(Output.safe(o.transactionId)) (original \(Output.safe(o.originalTransactionId)))"),
            ("attempts", "\(o.attempts), next retry \(Output.time(o.nextRetryAt))"),
            ("last error", Output.safe(o.lastError)),
            ("game told", Output.safe(d.gameTold?.text)),
        ])]
        if let verdict = d.attempts.last(where: { $0.verdict != nil })?.verdict {
            // The store's own decision on Apple's latest answer, as it made it.
            lines.append("\nverdict: \(verdict.outcome.rawValue) → \(verdict.orderState.rawValue)" + (verdict.reason.map { ": " + Output.safe($0) } ?? ""))
            if let picked = verdict.pickedTransactionId { lines.append("  picked transaction \(Output.safe(picked))") }
            for check in verdict.checks { lines.append("  \(check.passed ? "✓" : "✗") \(check.name.rawValue): \(Output.safe(check.detail))") }
            if let ownership = verdict.ownershipReason { lines.append("  R8: \(Output.safe(ownership))") }
        }
        lines.append("\ntimeline:")
        for event in d.timeline {
            lines.append("  \(Output.time(event.at))  \(Output.safe(event.text))")
        }
        return lines.joined(separator: "\n")
    }
}
