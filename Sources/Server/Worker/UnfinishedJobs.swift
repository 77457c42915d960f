import OrderDomain
import OrderStore

/// Jobs this worker ran but could not record the end of, because the store was out of
/// reach (a restart, a full disk). Their leases are still this worker's: without a second
/// try they would wait out the lease (two minutes) before anyone ran them again. The
/// worker records them as soon as the store answers again.
actor UnfinishedJobs {
    private var pending: [(job: Job, result: JobQueue.Result)] = []

    var isEmpty: Bool { pending.isEmpty }

    func add(_ job: Job, _ result: JobQueue.Result) {
        pending.append((job, result))
    }

    /// Records each end in turn; stops at the first failure (the store is still away).
    func record(in store: OrderStore, owner: String) async {
        while let (job, result) = pending.first {
            do {
                _ = try await store.jobs.finish(job, owner: owner, result: result)
            } catch {
                return
            }
            pending.removeFirst()
        }
    }
}
