import OrderStore
import TestSupport
import Testing

/// The in-process wake-up of idle workers (`OrderStore.jobsDue`).
@Suite("Job signal")
struct JobSignalTests {
    @Test("A commit that makes a job due ends a worker's idle wait at once; one that does not, and no commit, leave it to its timeout")
    func wakes() async throws {
        try await withStore(.sqlite) { store in
            try await store.placeOrder(orderId: "sig-1", accountId: "p-sig", productId: "coins_60")
            // Placing an order owes no job: the wait runs to its timeout.
            var mark = store.jobsDue.mark
            try await store.placeOrder(orderId: "sig-2", accountId: "p-sig", productId: "coins_60")
            var start = ContinuousClock.now
            await store.jobsDue.wait(since: mark, upTo: .milliseconds(200))
            #expect(ContinuousClock.now - start >= .milliseconds(190))

            // A receipt stored owes a verification now: a waiter is woken.
            // Timed from the commit, not from the wait's start: on a loaded CI machine the write
            // itself has taken seconds, and the waiter is right to wait for it.
            let before = store.jobsDue.mark
            let waiter = Task { () -> ContinuousClock.Instant in
                await store.jobsDue.wait(since: before, upTo: .seconds(30))
                return ContinuousClock.now
            }
            try await Task.sleep(for: .milliseconds(100))
            _ = try await store.submitReceipt(orderId: "sig-1", receiptData: "r")
            let committed = ContinuousClock.now
            #expect(await waiter.value - committed < .seconds(2), "woken by the commit, not by the 30 s timeout")

            // A commit between the mark and the wait is not missed.
            mark = store.jobsDue.mark
            _ = try await store.submitReceipt(orderId: "sig-2", receiptData: "r")
            start = ContinuousClock.now
            await store.jobsDue.wait(since: mark, upTo: .seconds(10))
            #expect(ContinuousClock.now - start < .seconds(1))
        }
    }
}
