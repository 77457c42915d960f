import OrderDomain

/// Whose turn comes first when callers wait for a connection. A store answering a client
/// that waits on the line (Apple's notification, Google's push, a game server's 202) goes
/// before work nobody waits on (the worker applying what was stored, the outbox's
/// bookkeeping): Apple and Google time out and send again, the worker only finishes a
/// little later. Among callers of one kind the order stays first come, first served.
///
/// Starvation is bounded by the receivers' group commit: each runs one batch at a time per
/// writer, so background work gets the connection between two batches.
public enum CallPriority {
    @TaskLocal static var answering = false

    /// Runs `body` with its calls to the store ahead of background work's.
    public static func answering<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async rethrows -> T {
        try await $answering.withValue(true) { try await body() }
    }
}
