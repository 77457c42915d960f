import OrderDomain

/// One line of an order's history, for `order show` and the console's detail screen. The
/// text holds data as stored: whoever displays it sanitizes it.
public struct TimelineEvent: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case placed, submission, grant, revoke, audit
        /// A call to Apple, with its outcome (`valid`, `retryable`, `final`, `valid_expired`).
        case attempt(outcome: AttemptOutcome)
        /// A notification from Apple about the order's transaction, with what it did.
        case notification(outcome: NotificationOutcome)
        /// An event to the game, and whether the game confirmed it.
        case gameEvent(confirmed: Bool)
    }

    public var at: Millis
    public var kind: Kind
    public var text: String
}

extension OrderDetail {
    /// Everything that happened to the order, oldest first: placed, receipts submitted,
    /// calls to Apple with the status and its meaning, Apple's notifications about its
    /// transactions, grants and revocations, audit entries.
    public var timeline: [TimelineEvent] {
        var events = [TimelineEvent(at: order.createdAt, kind: .placed, text: "order placed")]
        for s in submissions {
            events.append(
                TimelineEvent(
                    at: s.receivedAt, kind: .submission,
                    text: "receipt #\(s.id) from \(s.source.rawValue)" + (s.claimedTransactionId.map { ", claims transaction \($0)" } ?? "")))
        }
        events += Self.attemptEvents(attempts)
        for g in grants {
            events.append(
                TimelineEvent(at: g.grantedAt, kind: .grant, text: "granted (\(g.kind.rawValue)) by \(g.operatorName)" + (g.reason.map { ": \($0)" } ?? "")))
            if let revoked = g.revokedAt {
                events.append(
                    TimelineEvent(
                        at: revoked, kind: .revoke,
                        text: "grant revoked by \(g.revokedBy ?? "?"): \(g.revokeWhy.map(ReasonWords.sentence) ?? g.revokeReason ?? "")"))
            }
        }
        for n in notifications {
            events.append(
                TimelineEvent(
                    at: n.receivedAt, kind: .notification(outcome: n.outcome),
                    text: "Apple \(n.facts.kind) (#\(n.id), signed \(n.facts.signedDate?.iso8601 ?? "-"), via \(n.via.rawValue)): "
                        + "\(n.outcome.rawValue)" + (NotificationWords.detail(n).map { " — \($0)" } ?? "")))
        }
        for e in self.events {
            let tries =
                e.attempts.isEmpty
                ? ""
                : "; tries: " + e.attempts.suffix(3).map(\.line).joined(separator: "; ")
                    + (e.attempts.count > 3 ? " (\(e.attempts.count) in all)" : "")
            events.append(
                TimelineEvent(
                    at: e.event.createdAt, kind: .gameEvent(confirmed: e.event.confirmedAt != nil),
                    text: "game told \(e.event.type.rawValue) (\(e.event.eventId)): \(e.event.summary) — \(e.event.deliveryText)" + tries))
        }
        for e in audit {
            events.append(
                TimelineEvent(
                    at: e.at, kind: .audit,
                    text: "audit #\(e.seq) \(e.action.rawValue) by \(e.actor) (\(e.role.rawValue))" + (AuditWords.detail(e.detail).map { ": \($0)" } ?? "")
                        + (ReasonWords.audited(e).map { " — \($0)" } ?? "")))
        }
        // Stable: events at the same millisecond keep the order above.
        return events.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
    }

    /// One line per call to Apple, saying only what is known (no "no status, HTTP -" beside
    /// a reason that names the HTTP status). A run of calls with the same answer shows its
    /// first and last, with one line for the calls between: an order retried 78 times keeps
    /// its grant in view.
    static func attemptEvents(_ attempts: [VerificationAttempt]) -> [TimelineEvent] {
        func line(_ a: VerificationAttempt) -> String {
            var parts = ["\(a.outcome.rawValue)"]
            if let status = a.appleStatus { parts.append("status \(status)" + (a.statusMeaning.map { " (\($0))" } ?? "")) }
            if let http = a.httpStatus { parts.append("HTTP \(http)") }
            parts.append("\(a.latencyMs) ms")
            return "verify \(a.method.rawValue)\(a.environment.map { " \($0.rawValue)" } ?? ""): " + parts.joined(separator: ", ")
                + (ReasonWords.attempt(a).map { " — \($0)" } ?? "")
        }
        func sameAnswer(_ a: VerificationAttempt, _ b: VerificationAttempt) -> Bool {
            (a.outcome, a.appleStatus, a.httpStatus, a.why, a.method, a.environment) == (
                b.outcome, b.appleStatus, b.httpStatus, b.why, b.method, b.environment
            )
        }
        var events: [TimelineEvent] = []
        var index = attempts.startIndex
        while index < attempts.endIndex {
            var end = index + 1
            while end < attempts.endIndex, sameAnswer(attempts[end], attempts[index]) { end += 1 }
            let run = attempts[index..<end]
            events.append(TimelineEvent(at: run[index].at, kind: .attempt(outcome: run[index].outcome), text: line(run[index])))
            // A single call between the first and the last is shown as itself: a line saying
            // "1 more" would take as much room. The last call follows with its own time.
            if run.count == 3 {
                events.append(TimelineEvent(at: run[index + 1].at, kind: .attempt(outcome: run[index + 1].outcome), text: line(run[index + 1])))
            } else if run.count > 3 {
                events.append(
                    TimelineEvent(
                        at: run[index + 1].at, kind: .attempt(outcome: run[index].outcome),
                        text: "… \(run.count - 2) more calls to Apple with the same answer"))
            }
            if run.count > 1 {
                events.append(TimelineEvent(at: run[end - 1].at, kind: .attempt(outcome: run[end - 1].outcome), text: line(run[end - 1])))
            }
            index = end
        }
        return events
    }
}
