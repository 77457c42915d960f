import Foundation

/// A visitor's own demo over SSH (`iapdesk demo-session`). The console says on every frame
/// that it is a demo deleted when the visitor leaves and how long is left; it writes no file
/// and reads no theme file the visitor names; it ends itself after `idleTimeout` without a
/// key, and at `endsAt`, so that a seat left open is given back to the next visitor.
public struct DemoVisit: Sendable {
    public let idleTimeout: Duration
    public let endsAt: ContinuousClock.Instant

    public init(idleTimeout: Duration, length: Duration, startedAt: ContinuousClock.Instant = .now) {
        self.idleTimeout = idleTimeout
        self.endsAt = startedAt + length
    }

    /// The header's badge: what this is and the time left, in whole minutes (seconds in the last one).
    public func badge(now: ContinuousClock.Instant = .now) -> String {
        " DEMO · resets on exit · \(Self.words(max(.zero, endsAt - now))) left "
    }

    /// Why the visit is over at `now` with the last key at `lastKey`, or nil while it goes on.
    public func ending(now: ContinuousClock.Instant, lastKey: ContinuousClock.Instant) -> String? {
        if now >= endsAt { return "this demo has reached its time limit" }
        if now - lastKey >= idleTimeout { return "this demo was closed after \(Self.words(idleTimeout)) without a key" }
        return nil
    }

    /// The warning for the last minute before an idle close, or nil.
    public func idleWarning(now: ContinuousClock.Instant, lastKey: ContinuousClock.Instant) -> String? {
        let left = idleTimeout - (now - lastKey)
        guard left <= .seconds(60), idleTimeout > .seconds(60) else { return nil }
        return "no key for a while: this demo closes in \(Self.words(left)) unless you press one"
    }

    static func words(_ duration: Duration) -> String {
        let seconds = Int(duration.components.seconds)
        return seconds < 60 ? "\(seconds) s" : "\(seconds / 60) min"
    }
}
