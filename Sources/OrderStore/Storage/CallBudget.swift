import OrderDomain

/// A deadline for everything a task asks of the store, however many calls it makes: an
/// HTTP request that reads an order and then writes a submission answers within its
/// deadline, not within one deadline per call. Waiting for a connection, connecting and
/// every PostgreSQL statement take the sooner of their own deadline and the budget's.
public enum CallBudget {
    @TaskLocal static var deadline: ContinuousClock.Instant?

    /// Runs `body` with everything it asks of any store done by `deadline` from now.
    public static func within<T>(_ duration: Duration, _ body: () async throws -> T) async rethrows -> T {
        try await $deadline.withValue(ContinuousClock.now + duration) { try await body() }
    }

    /// The deadline of the calling task's budget; nil when it has none.
    public static var current: ContinuousClock.Instant? { deadline }

    /// Runs `body` under the budget that ends at `end` (none when nil), whatever budget the
    /// calling task has: work done on behalf of others (a group commit) takes theirs.
    public static func until<T>(
        _ end: ContinuousClock.Instant?, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        try await $deadline.withValue(end) { try await body() }
    }

    /// The sooner of `limit` from now and the budget's end, as a duration from now.
    ///
    /// - Throws: ``spent`` once the budget has ended: the call is not even tried.
    static func remaining(upTo limit: Duration) throws -> Duration {
        guard let deadline else { return limit }
        let left = min(limit, deadline - ContinuousClock.now)
        guard left > .zero else { throw spent }
        return left
    }

    static var spent: StoreError { .unavailable("the call's deadline passed before the database answered") }
}
