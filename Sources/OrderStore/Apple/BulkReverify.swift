import OrderDomain

extension AppleAnswers {
    /// Re-verifies `orderIds` with at most `concurrency` calls to Apple in flight, started
    /// ``CallPacer/spacing`` apart. Apple's seconds are spent outside the store's
    /// lock, so the calls overlap while the writes stay serialized. When `shouldContinue`
    /// turns false no new call starts; those in flight finish and are recorded, so nothing is
    /// half-done (the console's Esc). An order that fails (gone, forbidden) is listed and the
    /// rest go on.
    public func reverifyAll(
        _ orderIds: [String], using verifier: any ReceiptVerifier, by actor: Operator = .system, concurrency: Int = 32,
        shouldContinue: @Sendable () -> Bool = { true },
        progress: @Sendable (BulkProgress) async -> Void = { _ in }
    ) async -> BulkProgress {
        var state = BulkProgress(done: 0, total: orderIds.count, delivered: 0, retrying: 0, failed: [])
        let start = Millis.now()
        await withTaskGroup(of: Finished.self) { group in
            var pending = orderIds.makeIterator()
            var inFlight = 0
            var pacer = CallPacer(slots: concurrency)
            while true {
                while inFlight < max(1, concurrency), !Task.isCancelled, shouldContinue(), let id = pending.next() {
                    let at = pacer.nextStart()
                    inFlight += 1
                    group.addTask {
                        try? await Task.sleep(until: at, clock: .continuous)
                        let started = ContinuousClock.now
                        var finished = await reverifyOne(id, using: verifier, by: actor, since: start)
                        finished.took = .now - started
                        return finished
                    }
                }
                guard let finished = await group.next() else { break }
                inFlight -= 1
                pacer.observe(finished.took)
                state.done += 1
                switch finished.state {
                case .delivered: state.delivered += 1
                case .verifyRetry: state.retrying += 1
                default: break
                }
                if finished.elsewhere {
                    state.elsewhere += 1
                } else if let error = finished.error {
                    state.failed.append((finished.orderId, error))
                }
                await progress(state)
            }
        }
        return state
    }

    private struct Finished: Sendable {
        var orderId: String
        var state: OrderState?
        var error: (any Error)?
        var elsewhere = false
        /// From the call's start to its answer stored.
        var took: Duration = .zero
    }

    private func reverifyOne(_ orderId: String, using verifier: any ReceiptVerifier, by actor: Operator, since start: Millis) async -> Finished {
        do {
            return Finished(orderId: orderId, state: try await reverify(orderId: orderId, using: verifier, by: actor, unlessAskedSince: start).order.state)
        } catch StoreError.verifyingElsewhere {
            return Finished(orderId: orderId, elsewhere: true)
        } catch {
            return Finished(orderId: orderId, error: error)
        }
    }
}
