import OrderDomain

/// When the next call to Apple may start: a gap after the one before, so that calls which
/// take Apple about the same time do not come back together and wait for each other's
/// answers to be stored.
///
/// The gap spreads one call's duration over the calls in flight (a call's typical duration
/// ÷ the slots, learned from the calls that finished), at most ``maxSpacing``. Measured at
/// 500 ms a call and 32 in flight, 10,000 orders through `reverifyAll` on SQLite: 1.29 × the
/// ideal with only the first calls ramped, 1.02 × with every start paced (then at a fixed
/// 10 ms). Answers that come back in a few milliseconds cannot pile up, and a fixed gap only
/// delayed them: 8 purchases at once, each with its own verification, took 151 ms to
/// `delivered` at p50 with the simulator answering at once, 65 ms with no gap. Before the
/// first call finishes nothing is known, so the first calls start at once. `reverifyAll`
/// and `serve`'s worker both pace their calls with it.
public struct CallPacer: Sendable {
    /// 10 ms: a gap longer than an answer's write on either backend. It binds only for calls
    /// of 320 ms or longer with 32 in flight, which cannot start more than 100 a second anyway.
    public static let maxSpacing: Duration = .milliseconds(10)

    private let slots: Int
    private var last: ContinuousClock.Instant
    /// How long a call takes, averaged over those that finished; nil before the first.
    private var typical: Duration?

    /// A pacer for at most `slots` calls in flight.
    public init(slots: Int) {
        self.slots = max(1, slots)
        last = ContinuousClock.now - Self.maxSpacing
    }

    /// The gap between two starts now.
    public var spacing: Duration {
        guard let typical else { return .zero }
        return min(Self.maxSpacing, typical / slots)
    }

    /// A call that finished, `took` after it started: later gaps follow it (a moving
    /// average that gives it an eighth of the weight).
    public mutating func observe(_ took: Duration) {
        typical = typical.map { ($0 * 7 + took) / 8 } ?? took
    }

    /// The next call's start: now, or `spacing` after the previous start when that is later.
    public mutating func nextStart() -> ContinuousClock.Instant {
        last = max(ContinuousClock.now, last + spacing)
        return last
    }
}
