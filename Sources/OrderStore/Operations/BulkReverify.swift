/// Progress of a bulk re-verification, reported after each order.
public struct BulkProgress: Sendable {
    public var done: Int
    public var total: Int
    /// Orders that reached `delivered` on this run.
    public var delivered: Int
    /// Orders still waiting on Apple (`verify_retry`).
    public var retrying: Int
    public var failed: [(orderId: String, error: String)]
}

extension OrderStore {
    /// Re-verifies `orderIds` with at most `concurrency` calls to Apple in flight. Apple's
    /// seconds are spent outside the store's lock, so the calls overlap while the writes stay
    /// serialized. Cancelling the calling task stops new calls; those in flight finish and
    /// are recorded, so nothing is half-done. An order that fails (gone, forbidden) is
    /// listed and the rest go on.
    public func reverifyAll(
        _ orderIds: [String], using verifier: any ReceiptVerifier, by actor: Operator = .system, concurrency: Int = 32,
        progress: @Sendable (BulkProgress) async -> Void = { _ in }
    ) async -> BulkProgress {
        var state = BulkProgress(done: 0, total: orderIds.count, delivered: 0, retrying: 0, failed: [])
        await withTaskGroup(of: (String, Result<OrderState, any Error>).self) { group in
            var pending = orderIds.makeIterator()
            func startNext() -> Bool {
                guard !Task.isCancelled, let id = pending.next() else { return false }
                group.addTask {
                    do { return (id, .success(try await self.reverify(orderId: id, using: verifier, by: actor).order.state)) } catch {
                        return (id, .failure(error))
                    }
                }
                return true
            }
            for _ in 0..<max(1, concurrency) where !startNext() { break }
            for await (id, result) in group {
                state.done += 1
                switch result {
                case .success(.delivered): state.delivered += 1
                case .success(.verifyRetry): state.retrying += 1
                case .success: break
                case .failure(let error): state.failed.append((id, "\(error)"))
                }
                await progress(state)
                _ = startNext()
            }
        }
        return state
    }
}
