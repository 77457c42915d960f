/// A notification as people read it, the same lines in `iapdesk notifications show` and on
/// the console's notification screen (each sanitizes before it prints).
extension NotificationRecord {
    public var fields: [(name: String, value: String)] {
        let t = facts.transaction
        return [
            ("notification", "#\(id) \(facts.kind), uuid \(facts.uuid ?? "-")"),
            ("received", "\(receivedAt.iso8601) via \(via.rawValue) at the \(endpoint.rawValue) URL"),
            ("signature", rejection.map { "REJECTED: \($0)" } ?? "verified: chain to the configured roots, bundle id, environment"),
            ("signed", facts.signedDate?.iso8601 ?? "-"),
            ("transaction", t.map { "\($0.transactionId) of \($0.originalTransactionId), \($0.productId)" } ?? "-"),
            ("refunded", t?.cancellationDate?.iso8601 ?? "-"),
            ("renewal", facts.renewal.map { "auto-renew \($0.autoRenewEnabled ? "on" : "off")" + ($0.isInBillingRetry ? ", billing retry" : "") } ?? "-"),
            ("outcome", outcome.rawValue + (appliedAt.map { " at \($0.iso8601)" } ?? "")),
            ("detail", detail ?? "-"),
            ("deadline", deadline.map { "answer with consumption information by \($0.iso8601)" } ?? "-"),
        ]
    }
}
