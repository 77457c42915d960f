import AsyncHTTPClient

/// One deadline for a whole exchange: connecting, sending, the answer's head and all of its
/// body. AsyncHTTPClient's own deadline stops at the head, so a peer that trickles its body a
/// byte a second would otherwise hold a call (and a worker) for as long as it likes.
public enum ExchangeDeadline {
    /// Runs `exchange`, cancelling it when `timeout` passes first; then it throws
    /// `HTTPClientError.deadlineExceeded`, which `TransportErrorText` reads as "timed out".
    public static func run<Value: Sendable>(
        within timeout: Duration, _ exchange: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await exchange() }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw HTTPClientError.deadlineExceeded }
            return value
        }
    }
}
