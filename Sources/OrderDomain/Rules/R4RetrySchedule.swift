/// R4: when to ask Apple again after a retryable failure [S0 §5, S1, S2].
///
/// 10 s, 30 s, 2 min, 10 min, 30 min, 1 h, then hourly, for 72 h from the first failure.
/// A paid receipt is never rejected because Apple was unreachable: when the schedule
/// runs out the order stays stuck and is flagged "needs operator".
public enum RetrySchedule {
    public static let steps: [Millis] = [.seconds(10), .seconds(30), .minutes(2), .minutes(10), .minutes(30), .hours(1)]
    public static let window: Millis = .hours(72)

    /// The delay after the `failures`-th consecutive failure (1-based).
    public static func delay(afterFailure failures: Int) -> Millis {
        let index = max(failures, 1) - 1
        return index < steps.count ? steps[index] : .hours(1)
    }

    /// When to retry next, or nil when the 72 h window is spent.
    public static func nextAttempt(afterFailure failures: Int, firstFailureAt: Millis, now: Millis) -> Millis? {
        let next = now + delay(afterFailure: failures)
        return next <= firstFailureAt + window ? next : nil
    }
}
