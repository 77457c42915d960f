import Foundation
import Testing

/// Tests whose child processes load the whole machine (the demo seeding its store in a debug
/// build, a PostgreSQL server of their own, `serve` under load, a Python library judging a
/// simulator) take turns: at most `IAPDESK_TEST_HEAVY` of them (2 unless set) run at once.
/// Swift Testing starts every test together, and on a 2-core machine a dozen such children
/// at once stretched waits that take seconds alone past a minute. Each test's own clocks start
/// once it has its turn.
public struct TakesTurns: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await Turns.heavy.take()
        do {
            try await function()
        } catch {
            await Turns.heavy.give()
            throw error
        }
        await Turns.heavy.give()
    }
}

extension Trait where Self == TakesTurns {
    /// Runs while few other heavy tests run (see ``TakesTurns``).
    public static var takesTurns: Self { TakesTurns() }
}

/// A counting semaphore whose waiters are served first come, first served.
actor Turns {
    static let heavy = Turns(slots: ProcessInfo.processInfo.environment["IAPDESK_TEST_HEAVY"].flatMap(Int.init) ?? 2)

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(slots: Int) { free = max(1, slots) }

    func take() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func give() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
