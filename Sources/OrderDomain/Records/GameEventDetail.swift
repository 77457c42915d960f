/// One event with every try to tell the game, for `events show` and the console.
public struct GameEventDetail: Sendable {
    public var event: GameEvent
    /// Oldest first.
    public var attempts: [GameEventAttempt]

    /// Every field, for a screen or a report built from values (a test, a preview).
    public init(event: GameEvent, attempts: [GameEventAttempt]) {
        self.event = event
        self.attempts = attempts
    }
}

/// The game endpoint failing now, for the banner: like Apple's outage (OutageRule's
/// streak), from the newest pushes.
public struct GameEndpointOutage: Sendable, Equatable {
    public var since: Millis
    public var failures: Int
    /// Events the game has not confirmed.
    public var waiting: Int64

    /// Every field, for a screen or a report built from values (a test, a preview).
    public init(since: Millis, failures: Int, waiting: Int64) {
        self.since = since
        self.failures = failures
        self.waiting = waiting
    }
}
