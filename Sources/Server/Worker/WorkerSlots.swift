import OrderDomain

/// Which of a round's claimed jobs starts next. Calls to another server (Apple, Google, the
/// game) spend their time waiting for its answer, so `concurrency` of them run at once. Work
/// that stays in the store (applying notifications, the expiry sweep) is bounded by the CPU
/// and the database: more of it at once only queues there, beside the receivers that
/// acknowledge Apple's and Google's deliveries, so at most `storeOnly` of it runs at once.
/// (Measured on this project's 2-core machine: eight clients' acknowledgement p99 on
/// PostgreSQL 19.5–20.9 ms with 16 at a time, 14.8–15.8 ms with one per core.)
struct WorkerSlots {
    let concurrency: Int
    let storeOnly: Int
    private(set) var running = 0
    private var runningStoreOnly = 0

    init(concurrency: Int, storeOnly: Int) {
        self.concurrency = max(1, concurrency)
        self.storeOnly = max(1, storeOnly)
    }

    /// Takes the first pending job that may start now, in claim order, or nil.
    mutating func start(from pending: inout ArraySlice<Job>) -> Job? {
        guard running < concurrency, let index = pending.firstIndex(where: { !$0.kind.staysInStore || runningStoreOnly < storeOnly }) else {
            return nil
        }
        let job = pending.remove(at: index)
        running += 1
        if job.kind.staysInStore { runningStoreOnly += 1 }
        return job
    }

    /// A job of `kind` ended: its slot is free.
    mutating func finished(_ kind: JobKind) {
        running -= 1
        if kind.staysInStore { runningStoreOnly -= 1 }
    }

    var free: Int { concurrency - running }
}
