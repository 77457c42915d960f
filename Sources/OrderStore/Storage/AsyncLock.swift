import OrderDomain

/// A FIFO lock for async code. A store's connection runs one transaction at a time;
/// actor isolation alone would let a second call interleave at every `await`.
actor AsyncLock {
    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        if !held {
            held = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func release() {
        if waiters.isEmpty {
            held = false
        } else {
            waiters.removeFirst().resume()  // ownership passes straight to the next waiter
        }
    }

    /// Runs `body` holding the lock. Nonisolated so the body stays in the caller's isolation.
    nonisolated func run<T>(_ body: () async throws -> T) async throws -> T {
        await acquire()
        do {
            let result = try await body()
            await release()
            return result
        } catch {
            await release()
            throw error
        }
    }
}
