import OrderDomain
import Testing

@testable import Server

/// Which claimed job the worker starts next: calls to other servers fill every slot; work that
/// stays in the store takes at most its own share, and waits without holding up the calls.
@Suite("Worker slots")
struct WorkerSlotsTests {
    func job(_ id: Int64, _ kind: JobKind) -> Job {
        Job(id: id, kind: kind, subject: "s\(id)", dueAt: 0, attempts: 0)
    }

    @Test("Notifications to apply run two at a time; the verifications claimed after them start beside them; a finished one lets the next in")
    func storeOnlyShare() {
        var slots = WorkerSlots(concurrency: 4, storeOnly: 2)
        var pending = [
            job(1, .applyNotifications), job(2, .applyNotifications), job(3, .applyNotifications), job(4, .verify), job(5, .verify),
            job(6, .sendEvents),
        ][...]
        var started: [Int64] = []
        while let next = slots.start(from: &pending) { started.append(next.id) }
        #expect(started == [1, 2, 4, 5])
        #expect(pending.map(\.id) == [3, 6])
        slots.finished(.verify)
        #expect(slots.start(from: &pending)?.id == 6)  // a verification's slot: the store-only share is still full
        #expect(slots.start(from: &pending) == nil)
        slots.finished(.applyNotifications)
        #expect(slots.start(from: &pending)?.id == 3)
        #expect(pending.isEmpty)
    }

    @Test("With only work that stays in the store, a round still runs it, its share at a time")
    func onlyStoreOnly() {
        var slots = WorkerSlots(concurrency: 16, storeOnly: 2)
        var pending = (1...5).map { job($0, .applyNotifications) }[...]
        #expect(slots.start(from: &pending)?.id == 1)
        #expect(slots.start(from: &pending)?.id == 2)
        #expect(slots.start(from: &pending) == nil)
        #expect(slots.free == 14)
    }
}
