import Foundation
import OrderDomain

/// Wakes this process's idle workers when a commit made a job due now (a receipt stored,
/// an event for the game written), so it runs at once instead of after the worker's idle
/// poll. Other processes sharing a PostgreSQL store still find it by polling.
public final class JobSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var generation = 0
    private var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    /// Waits that timed out or were cancelled before they began waiting.
    private var ended: Set<UUID> = []

    init() {}

    /// Wakes every waiter.
    func notify() {
        let woken = lock.withLock {
            generation += 1
            defer { waiters = [:] }
            return Array(waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    /// A mark to wait from: a notify after it ends the wait at once.
    public var mark: Int { lock.withLock { generation } }

    /// How many waits are waiting now: what a test reads to know a waiter has begun.
    public var waiting: Int { lock.withLock { waiters.count } }

    /// Returns after a notify since `mark`, after `timeout`, or when cancelled.
    public func wait(since mark: Int, upTo timeout: Duration) async {
        let id = UUID()
        let timer = Task {
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { self.resume(id) }
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = lock.withLock {
                    guard generation == mark, ended.remove(id) == nil else { return true }
                    waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            self.resume(id)
        }
        timer.cancel()
        await timer.value  // its resume, if any, has run: nothing of this wait is left behind
        lock.withLock { _ = ended.remove(id) }
    }

    /// Ends one wait, or marks it ended if it has not begun yet.
    private func resume(_ id: UUID) {
        let waiter = lock.withLock {
            let waiter = waiters.removeValue(forKey: id)
            if waiter == nil { ended.insert(id) }
            return waiter
        }
        waiter?.resume()
    }
}
