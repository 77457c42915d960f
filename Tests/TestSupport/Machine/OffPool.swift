import Foundation

/// Blocking work a test must do (a child process waited for with `waitpid`, `system`, a
/// tool that takes seconds) run on a thread of its own. The suite's tests share a concurrency
/// pool of one thread a core: a blocked pool thread is one no other test's task can run on,
/// and a task holding a database row lock that cannot run makes every other transaction on
/// that row outlive its deadline.
public enum OffPool {
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try body() }) }
            thread.start()
        }
    }

    public static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.start()
        }
    }
}
