import OrderStore
import TestSupport
import Testing

@testable import Server

/// The batching itself, with a commit that takes its time: what arrives meanwhile shares
/// the next commit, every caller gets its own answer, and a failed commit fails only the
/// callers in it.
@Suite("serve: group commit")
struct GroupCommitTests {
    actor Log {
        var batches: [[Int]] = []
        func record(_ batch: [Int]) { batches.append(batch) }
    }

    struct Refused: Error {}

    @Test("Fifty callers at once: a handful of commits, each caller answered with its own result, a failed commit fails only its own callers")
    func batches() async throws {
        let log = Log()
        let commits = GroupCommit<Int, Int> { batch in
            await log.record(batch)
            try await Task.sleep(for: .milliseconds(50))
            // The second commit fails as a whole; in the others, odd items fail alone.
            if await log.batches.count == 2 { throw Refused() }
            return batch.map { $0 % 2 == 0 ? .success($0 * 10) : .failure(Refused()) }
        }
        let answers = await withTaskGroup(of: (Int, Int?).self) { group in
            // The first caller's commit is under way before the others arrive, so however a
            // loaded machine schedules them there is a second commit for them to share.
            group.addTask { (0, try? await commits.submit(0)) }
            while await log.batches.isEmpty { await Task.yield() }
            for item in 1..<50 {
                group.addTask { (item, try? await commits.submit(item)) }
            }
            var answers: [Int: Int?] = [:]
            for await (item, answer) in group { answers[item] = answer }
            return answers
        }
        let batches = await log.batches
        #expect(batches.flatMap { $0 }.sorted() == Array(0..<50), "every item committed once")
        #expect(batches.count < 10, "callers waiting during a commit share the next: \(batches.map(\.count))")
        let failedWhole = Set(try #require(batches.dropFirst().first, "a second commit"))
        for item in 0..<50 {
            let expected: Int? = failedWhole.contains(item) || item % 2 == 1 ? nil : item * 10
            #expect(answers[item] == expected, "item \(item)")
        }
        // After the rush, one caller alone is one commit of one.
        #expect(try await commits.submit(4) == 40)
        #expect(await log.batches.last == [4])
    }

    /// Under steady load the commit loop never empties, so its task lives as long as the
    /// load: it must not carry the deadline of the request that happened to start it, or
    /// every submission after that request's 10 s answers 503 (seen in the PostgreSQL
    /// intake benchmark: 64 clients for 10 s, 8 to 64 of them 503).
    @Test("A commit loop outlives the deadline of the request that started it: later commits still reach the store", .needsPostgres)
    func commitLoopOutlivesFirstCallersDeadline() async throws {
        let store = try await OrderStore.open(try await Backend.postgres.freshLocation(), settings: StoreSettings(bundleId: "com.example.game"))
        let commits = GroupCommit<Int, Int> { batch in
            try await Task.sleep(for: .milliseconds(400))
            _ = try await store.order("none")  // a PostgreSQL statement: it checks the deadline
            return batch.map { .success($0) }
        }
        var answers: [String] = []
        for item in 1...2 {
            do {
                // Only the first caller has a short budget; it starts the commit loop.
                let answer = try await CallBudget.within(item == 1 ? .milliseconds(200) : .seconds(10)) { try await commits.submit(item) }
                answers.append("\(answer)")
            } catch {
                answers.append("\(error)")
            }
        }
        await store.close()
        #expect(answers == ["1", "2"], "the commit ran past the budget of the caller that started it")
    }
}
