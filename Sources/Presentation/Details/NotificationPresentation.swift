import OrderDomain

/// A notification as people read it, the same lines in `iapdesk notifications show` and on
/// the console's notification screen (each sanitizes before it prints).
public enum NotificationPresentation {
    public static func fields(_ record: NotificationRecord) -> [(name: String, value: String)] {
        let (facts, t) = (record.facts, record.facts.transaction)
        let (id, receivedAt, via, endpoint, rejection) = (record.id, record.receivedAt, record.via, record.endpoint, record.rejection)
        let (outcome, appliedAt, detail, deadline) = (
            record.outcome, record.appliedAt, record.detail.map { NotificationWords.said($0, facts: facts) }, record.deadline
        )
        return [
            ("notification", "#\(id) \(facts.kind), uuid \(facts.uuid ?? "-")" + (facts.app.map { ", \($0)" } ?? "")),
            ("received", "\(receivedAt.iso8601) via \(via.rawValue) at the \(endpoint.rawValue) URL, from \(record.marketplace.company)"),
            ("signature", rejection.map { "REJECTED: \($0.words)" } ?? "verified: chain to the configured roots, bundle id, environment"),
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
