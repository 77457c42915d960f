/// Progress of a bulk re-verification, reported after each order.
public struct BulkProgress: Sendable {
    public var done: Int
    public var total: Int
    /// Orders that reached `delivered` on this run.
    public var delivered: Int
    /// Orders still waiting on Apple (`verify_retry`).
    public var retrying: Int
    /// Orders another process was verifying at that moment: left to it, not asked twice.
    public var elsewhere = 0
    public var failed: [(orderId: String, error: String)]

    /// One line for the console's message and the CLI: what the run came to.
    public var summary: String {
        var text = "re-verified \(done): \(delivered) delivered, \(retrying) still waiting on Apple"
        if elsewhere > 0 { text += ", \(elsewhere) being verified by another process" }
        if !failed.isEmpty { text += ", \(failed.count) failed" }
        return text
    }
}

extension OrderStore {
    /// Re-verifies `orderIds` with at most `concurrency` calls to Apple in flight. Apple's
    /// seconds are spent outside the store's lock, so the calls overlap while the writes stay
    /// serialized. Orders are claimed `concurrency` at a time in one commit (``ClaimQueue``),
    /// and each answer is recorded with its claim's release, so an order costs two commits.
    /// When `shouldContinue` turns false no new call starts; those in flight finish and are
    /// recorded, and claims not yet used are given back, so nothing is half-done (the
    /// console's Esc). An order that fails (gone, forbidden) is listed and the rest go on.
    public func reverifyAll(
        _ orderIds: [String], using verifier: any ReceiptVerifier, by actor: Operator = .system, concurrency: Int = 32,
        shouldContinue: @Sendable () -> Bool = { true },
        progress: @Sendable (BulkProgress) async -> Void = { _ in }
    ) async -> BulkProgress {
        var state = BulkProgress(done: 0, total: orderIds.count, delivered: 0, retrying: 0, failed: [])
        let start = Millis.now()
        let owner = Self.claimOwner(actor)
        var queue = ClaimQueue(orderIds, owner: owner, batch: max(1, concurrency))
        await withTaskGroup(of: Finished.self) { group in
            var running = 0
            while running < max(1, concurrency), let id = await queue.next(self, actor: actor, into: &state) {
                group.addTask { await self.reverifyOne(id, owner: owner, using: verifier, by: actor, since: start) }
                running += 1
            }
            await progress(state)
            while let finished = await group.next() {
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
                if !Task.isCancelled, shouldContinue(), let id = await queue.next(self, actor: actor, into: &state) {
                    group.addTask { await self.reverifyOne(id, owner: owner, using: verifier, by: actor, since: start) }
                }
            }
        }
        await queue.giveBack(self)
        return state
    }

    /// The orders of a bulk run, claimed a batch at a time. Orders another process holds,
    /// and a batch whose claim failed, are counted at once and never started.
    private struct ClaimQueue {
        var pending: ArraySlice<String>
        var claimed: ArraySlice<String> = []
        let owner: String
        let batch: Int

        init(_ orderIds: [String], owner: String, batch: Int) {
            self.pending = orderIds[...]
            self.owner = owner
            self.batch = batch
        }

        /// The next order this run holds, claiming the next batch when none is left.
        mutating func next(_ store: OrderStore, actor: Operator, into state: inout BulkProgress) async -> String? {
            while claimed.isEmpty, !pending.isEmpty {
                let ids = Array(pending.prefix(batch))
                pending = pending.dropFirst(ids.count)
                if let refusal = OrderStore.reverifyRefusal(actor) {
                    state.done += ids.count
                    state.failed += ids.map { ($0, "\(refusal)") }
                    continue
                }
                do {
                    let held = try await store.claimVerifications(ids, owner: owner)
                    state.done += held.count
                    state.elsewhere += held.count
                    claimed = ids.filter { held[$0] == nil }[...]
                } catch {
                    state.done += ids.count
                    state.failed += ids.map { ($0, "\(error)") }
                }
            }
            return claimed.popFirst()
        }

        /// Claims taken and never used (the run was stopped) go back at once, not when
        /// their lease runs out.
        func giveBack(_ store: OrderStore) async {
            for id in claimed { try? await store.releaseUnanswered(orderId: id, owner: owner) }
        }
    }

    private struct Finished: Sendable {
        var orderId: String
        var state: OrderState?
        var error: String?
        var elsewhere = false
    }

    private func reverifyOne(_ orderId: String, owner: String, using verifier: any ReceiptVerifier, by actor: Operator, since start: Millis) async -> Finished {
        do {
            let outcome = try await reverifyClaimed(orderId: orderId, owner: owner, using: verifier, by: actor, unlessAskedSince: start)
            return Finished(orderId: orderId, state: outcome.order.state)
        } catch StoreError.verifyingElsewhere {
            return Finished(orderId: orderId, elsewhere: true)
        } catch {
            return Finished(orderId: orderId, error: "\(error)")
        }
    }
}
