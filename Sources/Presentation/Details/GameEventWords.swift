import Foundation
import OrderDomain

/// An event to the game as people read it: the same words in `iapdesk events`, on the
/// order's screen and on `:undelivered` (each sanitizes before it prints).
extension GameEvent {
    /// What the game was asked to do, from the payload fixed at write time (its type when
    /// the stored payload is none the store wrote; `events show` says so).
    public var summary: String {
        (try? GameEventBody(stored: payload, eventId: eventId))?.summary ?? type.rawValue
    }

    /// "not told yet", "confirmed 12:03:04 (push) after 3 tries", "DEAD after 80 tries: HTTP 503 …".
    public var deliveryText: String {
        let tries = attempts == 1 ? "1 try" : "\(attempts) tries"
        if let confirmedAt, let confirmedVia { return "confirmed \(confirmedAt.iso8601) (\(confirmedVia))" + (attempts > 0 ? " after \(tries)" : "") }
        if deadAt != nil { return "DEAD after \(tries): \(lastError ?? "-")" }
        if attempts == 0 { return "not told yet" }
        return "not confirmed after \(tries): \(lastError ?? "-")"
    }
}

extension GameEventAttempt {
    /// "12:03:04 push HTTP 503 in 4 ms — game down", "… HTTP 200 in 2 ms — applied evt_…".
    public var line: String {
        let status = httpStatus.map { "HTTP \($0)" } ?? "no answer"
        return "\(at.iso8601) \(via) \(status)" + (latencyMs.map { " in \($0) ms" } ?? "") + (answer.map { " — \($0)" } ?? "")
    }
}

extension GameEventDetail {
    public var fields: [(name: String, value: String)] {
        [
            ("event", "\(event.eventId) (#\(event.id)), \(event.type.rawValue)"),
            ("order", event.orderId ?? "-"),
            ("account", event.accountId),
            ("game should", event.summary),
            ("written", event.createdAt.iso8601),
            ("delivery", event.deliveryText),
        ] + attempts.enumerated().map { ("try \($0.offset + 1)", $0.element.line) }
    }
}

extension OrderDetail {
    /// Whether the game knows of the order's last change: "delivered: confirmed … (push)
    /// after 1 try"; nil when nothing was ever owed to the game.
    public var gameTold: (text: String, confirmed: Bool)? {
        events.last.map { ("\($0.event.type.rawValue): \($0.event.deliveryText)", $0.event.confirmedAt != nil) }
    }
}
