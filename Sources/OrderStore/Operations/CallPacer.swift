/// When the next call to Apple may start: at least ``spacing`` after the one before, the
/// first calls of a run and every one after.
///
/// Calls that take Apple about the same time and start together come back together, and
/// their answers wait for each other to be stored. A ramp at the start alone does not hold:
/// over a long run the calls drift back into step. Measured at 500 ms a call and 32 in
/// flight, 10,000 orders through `reverifyAll` on SQLite: 1.29 × the ideal with only the
/// first calls ramped, 1.02 × with every start paced. `reverifyAll` and `serve`'s worker
/// both pace their calls with it.
public struct CallPacer: Sendable {
    /// 10 ms: a gap longer than an answer's write on either backend, and at most 100
    /// starts a second, more than 32 calls of 100 ms or longer can use.
    public static let spacing: Duration = .milliseconds(10)

    private var last: ContinuousClock.Instant

    public init() { last = ContinuousClock.now - Self.spacing }

    /// The next call's start: now, or `spacing` after the previous start when that is later.
    public mutating func nextStart() -> ContinuousClock.Instant {
        last = max(ContinuousClock.now, last + Self.spacing)
        return last
    }
}
