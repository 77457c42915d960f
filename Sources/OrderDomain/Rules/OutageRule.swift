/// When Apple is down rather than one order unlucky: the newest attempts to one of Apple's
/// endpoints all failed in a way worth retrying (R3), at least `streak` of them in a row
/// and the newest recent. Then the worker backs off as a whole instead of hammering, and
/// every console shows a banner. One success ends it.
public enum OutageRule {
    /// Consecutive retryable failures that make an outage.
    public static let streak = 5
    /// An outage whose newest failure is older than this is over (nothing is being tried).
    public static let staleAfter: Millis = .minutes(10)

    public struct Attempt: Sendable, Equatable {
        public var method: VerificationMethod
        public var outcome: AttemptOutcome
        public var at: Millis

        public init(method: VerificationMethod, outcome: AttemptOutcome, at: Millis) {
            self.method = method
            self.outcome = outcome
            self.at = at
        }
    }

    /// The failing endpoint and since when, from the newest attempts (newest first).
    public static func detect(newestFirst attempts: [Attempt], now: Millis) -> (method: VerificationMethod, since: Millis, failures: Int)? {
        var found: (method: VerificationMethod, since: Millis, failures: Int)?
        for method in [VerificationMethod.verifyReceipt, .serverAPI] {
            let run = attempts.filter { $0.method == method }.prefix { $0.outcome == .retryable }
            guard run.count >= streak, let newest = run.first, let oldest = run.last, now - newest.at <= staleAfter else { continue }
            if found == nil || oldest.at < (found?.since ?? .max) { found = (method, oldest.at, run.count) }
        }
        return found
    }
}

/// Apple failing now, as the console's banner and the worker's back-off see it.
public struct AppleOutage: Sendable, Equatable {
    public var method: VerificationMethod
    public var since: Millis
    /// Consecutive failed attempts (of the newest looked at).
    public var failures: Int
    /// Paid orders waiting for Apple (received or on the retry schedule).
    public var waiting: Int64

    /// Every field, for a screen or a report built from values (a test, a preview).
    public init(method: VerificationMethod, since: Millis, failures: Int, waiting: Int64) {
        self.method = method
        self.since = since
        self.failures = failures
        self.waiting = waiting
    }
}
