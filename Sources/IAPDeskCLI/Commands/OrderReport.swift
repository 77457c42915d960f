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
        for event in d.timeline {
            lines.append("  \(Output.time(event.at))  \(Output.safe(event.text))")
        }
        return lines.joined(separator: "\n")
    }
}
