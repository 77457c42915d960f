/// Group commit: requests that arrive while a commit is under way wait for the next one,
/// and that one takes them all. With one request at a time it is one commit per request,
/// as before — nobody waits for a batch to fill; under load one durable commit (one fsync
/// on SQLite, one WAL flush on PostgreSQL) answers many 202s.
actor GroupCommit<Item: Sendable, Output: Sendable> {
    typealias Commit = @Sendable ([Item]) async throws -> [Result<Output, any Error>]

    private let commit: Commit
    private let maxBatch: Int
    private var waiting: [(item: Item, answer: CheckedContinuation<Output, any Error>)] = []
    private var committing = false

    /// `commit` answers each item in order, or throws for the whole batch (nothing stored).
    init(maxBatch: Int = 256, commit: @escaping Commit) {
        self.commit = commit
        self.maxBatch = maxBatch
    }

    /// Returns once `item` is committed, or throws its own error or the batch's.
    func submit(_ item: Item) async throws -> Output {
        try await withCheckedThrowingContinuation { answer in
            waiting.append((item, answer))
            guard !committing else { return }
            committing = true
            // A task of its own: a client that hangs up must not cancel its neighbours' commit.
            // Detached, so it does not inherit this request's task-locals either: under
            // steady load the loop outlives the request, and its deadline (CallBudget) would
            // fail every commit after it.
            Task.detached { await self.drain() }
        }
    }

    private func drain() async {
        while !waiting.isEmpty {
            let batch = Array(waiting.prefix(maxBatch))
            waiting.removeFirst(batch.count)
            do {
                let results = try await commit(batch.map(\.item))
                for (index, entry) in batch.enumerated() {
                    entry.answer.resume(with: index < results.count ? results[index] : .failure(GroupCommitError.unanswered))
                }
            } catch {
                for entry in batch { entry.answer.resume(throwing: error) }
            }
        }
        committing = false
    }
}

enum GroupCommitError: Error, CustomStringConvertible {
    case unanswered
    var description: String { "the commit gave no answer for this request" }
}
