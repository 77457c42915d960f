import OrderDomain
import OrderStore

/// Group commit: requests that arrive while a commit is under way wait for the next one,
/// and that one takes them all. With one request at a time it is one commit per request,
/// as before — nobody waits for a batch to fill; under load one durable commit (one fsync
/// on SQLite, one WAL flush on PostgreSQL) answers many 202s.
///
/// Up to `concurrency` commits run at once, each on a connection of its own (PostgreSQL):
/// a batch's statements are round trips, and while one batch waits for its answers another
/// can write. Batches in flight together commit in any order; what one request needs in
/// order (a retried `Idempotency-Key`) the store keeps by its constraints. SQLite has one
/// writer, so there it is one.
///
/// Each caller's deadline (``CallBudget``, a request's) holds while it waits: a batch runs
/// under the soonest deadline of its callers, and a caller whose deadline passed before its
/// batch began is told the store is unavailable, with nothing stored.
actor GroupCommit<Item: Sendable, Output: Sendable> {
    typealias Commit = @Sendable ([Item]) async throws -> [Result<Output, any Error>]

    private let commit: Commit
    private let maxBatch: Int
    /// A caller waiting for its commit, with its deadline (nil: none).
    private typealias Waiter = (item: Item, deadline: ContinuousClock.Instant?, answer: CheckedContinuation<Output, any Error>)
    private var waiting: [Waiter] = []
    private let concurrency: Int
    /// Commit loops running now, at most `concurrency`.
    private var committing = 0

    /// `commit` answers each item in order, or throws for the whole batch (nothing stored).
    init(maxBatch: Int = 256, concurrency: Int = 1, commit: @escaping Commit) {
        self.commit = commit
        self.maxBatch = maxBatch
        self.concurrency = max(1, concurrency)
    }

    /// Returns once `item` is committed, or throws its own error or the batch's.
    func submit(_ item: Item) async throws -> Output {
        try await withCheckedThrowingContinuation { answer in
            waiting.append((item, CallBudget.current, answer))
            guard committing < concurrency else { return }
            committing += 1
            // A task of its own: a client that hangs up must not cancel its neighbours' commit.
            // Detached, so it does not inherit this request's task-locals either: under
            // steady load the loop outlives the request, and its deadline would fail every
            // commit after it. Each batch takes its own callers' deadline instead.
            Task.detached { await self.drain() }
        }
    }

    /// Callers waiting for a commit to take them, and commit loops running: what a test
    /// reads to know every caller has been seen and how many commits that started.
    var state: (waiting: Int, loops: Int) { (waiting.count, committing) }

    private func drain() async {
        while !waiting.isEmpty {
            let now = ContinuousClock.now
            let late = { (entry: Waiter) in entry.deadline.map { $0 <= now } ?? false }
            for entry in waiting where late(entry) {
                entry.answer.resume(throwing: StoreError.unavailable("the request's deadline passed before its commit began"))
            }
            waiting.removeAll(where: late)
            let batch = Array(waiting.prefix(maxBatch))
            waiting.removeFirst(batch.count)
            guard !batch.isEmpty else { break }
            do {
                let items = batch.map(\.item)
                let results = try await CallBudget.until(batch.compactMap(\.deadline).min()) { try await commit(items) }
                for (index, entry) in batch.enumerated() {
                    entry.answer.resume(with: index < results.count ? results[index] : .failure(GroupCommitError.unanswered))
                }
            } catch {
                for entry in batch { entry.answer.resume(throwing: error) }
            }
        }
        committing -= 1
    }
}

enum GroupCommitError: Error, CustomStringConvertible {
    case unanswered
    var description: String { "the commit gave no answer for this request" }
}
