import OrderDomain
import TestSupport
import Testing

@testable import OrderStore

/// The worker's queue in the store: a stored receipt owes a verification in the same
/// commit; jobs are leased, fenced and never lost; a job that keeps failing dies visibly.
@Suite("Jobs")
struct JobStoreTests {
    @Test("A stored receipt enqueues its verification in the same commit; a retry schedule moves the job", arguments: Backend.all)
    func receiptEnqueues(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await store.paidOrder("o1", account: "a1", claimed: nil)
            let job = try #require(try await store.jobs.job(.verify(orderId: "o1")))
            #expect(job.dueAt <= t0 + 2_000 && job.attempts == 0)
            let claimed = try await store.jobs.claim(owner: "w1", limit: 10, lease: .seconds(60), now: t0 + 5_000)
            #expect(claimed.map(\.subject) == ["o1"])
            _ = try await store.apple.apply(orderId: "o1", submissionId: nil, report: outage, at: t0 + 6_000)
            let next = try #require(try await store.orders.detail("o1").order.nextRetryAt)
            #expect(try await store.jobs.finish(claimed[0], owner: "w1", result: .again(at: next), now: t0 + 6_000))
            #expect(try await store.jobs.job(.verify(orderId: "o1"))?.dueAt == next)
        }
    }

    @Test("A leased job is nobody else's until its lease runs out (a killed worker); a finish from the old owner counts for nothing", arguments: Backend.all)
    func leases(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await store.paidOrder("o1", account: "a1", claimed: nil)
            let first = try await store.jobs.claim(owner: "w1", limit: 10, lease: .seconds(60), now: t0 + 5_000)
            #expect(first.count == 1)
            #expect(try await store.jobs.claim(owner: "w2", limit: 10, lease: .seconds(60), now: t0 + 10_000).isEmpty)
            let status = try await store.jobs.status(now: t0 + 10_000)
            #expect(status.leased == 1 && status.due == 0)
            // w1 died; its lease runs out and w2 takes the job.
            let second = try await store.jobs.claim(owner: "w2", limit: 10, lease: .seconds(60), now: t0 + 70_000)
            #expect(second.map(\.subject) == ["o1"] && second[0].attempts == 2)
            #expect(try await store.jobs.finish(first[0], owner: "w1", result: .done, now: t0 + 71_000) == false)
            #expect(try await store.jobs.finish(second[0], owner: "w2", result: .done, now: t0 + 72_000))
            #expect(try await store.jobs.job(.verify(orderId: "o1")) == nil)
        }
    }

    @Test(
        "Work that arrives while a worker holds the job is not dropped by that worker's finish: the job stays, due when it was asked for",
        arguments: Backend.all)
    func enqueuedWhileLeased(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await store.paidOrder("o1", account: "a1", claimed: nil)
            let held = try #require(try await store.jobs.claim(owner: "w1", limit: 1, lease: .seconds(60), now: t0 + 5_000).first)
            // A second receipt comes in while w1 is asking Apple about the first.
            try await store.orders.submit(orderId: "o1", receiptData: "second", at: t0 + 6_000)
            #expect(try await store.jobs.finish(held, owner: "w1", result: .done, now: t0 + 7_000))
            let kept = try #require(try await store.jobs.job(.verify(orderId: "o1")), "the second receipt is still owed its verification")
            #expect(kept.dueAt == t0 + 6_000 && kept.leaseOwner == nil && kept.attempts == 0)
            #expect(try await store.jobs.claim(owner: "w2", limit: 1, lease: .seconds(60), now: t0 + 8_000).map(\.subject) == ["o1"])
        }
    }

    @Test(
        "Work enqueued at the very moment the holder finishes is never deleted with the job: 300 races of a finish against an enqueue from another connection",
        arguments: Backend.all)
    func enqueueRacingFinish(backend: Backend) async throws {
        // Found in CI: on PostgreSQL a notification stayed pending for good when its enqueue
        // committed between the finish's "owed again?" check and its delete.
        try await withStore(backend) { store in
            for round in 1...300 {
                let subject = "race-\(round)"
                try await store.write(as: .system) { tx in try await tx.enqueue(.applyNotifications(key: subject), dueAt: tx.now) }
                let held = try #require(try await store.jobs.claim(owner: "w", limit: 1, lease: .seconds(60), kinds: [.applyNotifications]).first)
                async let finished = store.jobs.finish(held, owner: "w", result: .done)
                async let enqueued: Void = store.write(as: .system) { tx in
                    try await tx.enqueue(.applyNotifications(key: subject), dueAt: tx.now)
                }
                _ = try await (finished, enqueued)
                #expect(try await store.jobs.job(.applyNotifications(key: subject)) != nil, "round \(round): the second enqueue was lost")
                for job in try await store.jobs.claim(owner: "w", limit: 10, lease: .seconds(60)) {
                    try await store.jobs.finish(job, owner: "w", result: .done)
                }
            }
        }
    }

    @Test(
        "A worker's notification job ends in its last commit: finished when nothing came meanwhile, kept when one did, untouched after its lease passed on",
        arguments: Backend.all)
    func applyFinishesItsJob(backend: Backend) async throws {
        try await withStore(backend) { store in
            func refund(_ uuid: String, minute: Int64) -> IncomingNotification {
                IncomingNotification(
                    endpoint: .production, via: .receiver, raw: "eyJ…", rejection: nil,
                    facts: NotificationFacts(
                        uuid: uuid, type: "REFUND_DECLINED", signedDate: t0 + .minutes(minute), environment: "Production", transaction: tx("t-1", at: t0)))
            }
            let work = JobWork.applyNotifications(key: "t-1")
            func take(_ owner: String, at minute: Int64) async throws -> JobLease {
                let job = try #require(try await store.jobs.claim(owner: owner, limit: 1, lease: .minutes(1), now: t0 + .minutes(minute)).first)
                return JobLease(job: job, owner: owner)
            }
            // Two pending: both applied, in signed order, and the job is gone with the last.
            _ = try await store.notifications.receive(all: [refund("u-2", minute: 2), refund("u-1", minute: 1)], at: t0 + .minutes(3))
            let first = try await store.notifications.apply(key: "t-1", at: t0 + .minutes(4), finishing: try await take("w1", at: 4))
            #expect(first.applied == 2 && first.finished == true)
            #expect(try await store.jobs.job(work) == nil)
            #expect(try await store.notifications.list(outcome: .pending).isEmpty)

            // One arrives while the job is held: applied too, and the job stays owed (again_at).
            _ = try await store.notifications.receive(all: [refund("u-3", minute: 5)], at: t0 + .minutes(5))
            let held = try await take("w1", at: 6)
            _ = try await store.notifications.receive(all: [refund("u-4", minute: 6)], at: t0 + .minutes(6))
            let second = try await store.notifications.apply(key: "t-1", at: t0 + .minutes(7), finishing: held)
            #expect(second.applied == 2 && second.finished == true)
            let kept = try #require(try await store.jobs.job(work), "work owed while the job was held keeps it")
            #expect(kept.leaseOwner == nil && kept.dueAt == t0 + .minutes(6))

            // w1 stalls past its lease; w2 takes the job. w1's apply changes nothing of the job.
            let stale = try await take("w1", at: 8)
            let current = try await take("w2", at: 10)
            let late = try await store.notifications.apply(key: "t-1", at: t0 + .minutes(11), finishing: stale)
            #expect(late.applied == 0 && late.finished == false)
            #expect(try await store.jobs.job(work)?.leaseOwner == "w2")
            #expect(try await store.notifications.apply(key: "t-1", at: t0 + .minutes(11), finishing: current).finished == true)
            #expect(try await store.jobs.job(work) == nil)
        }
    }

    @Test("Workers report in: the header counts those heard from within 15 s; one killed without a goodbye is forgotten a day later", arguments: Backend.all)
    func heartbeats(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await store.heartbeat(worker: "killed", at: t0 - .hours(30))
            try await store.heartbeat(worker: "quiet", at: t0 - .seconds(20))
            try await store.heartbeat(worker: "alive", at: t0)
            #expect(try await store.workerStatus(now: t0).live == 1)
            #expect(try await store.serviceState("worker:killed") == nil, "forgotten")
            #expect(try await store.serviceState("worker:quiet") != nil)
            try await store.forgetWorker("alive")
            #expect(try await store.workerStatus(now: t0).live == 0)
        }
    }

    @Test("A job failing again and again backs off, then dies and is counted; a new receipt brings it back", arguments: Backend.all)
    func deadJobs(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await store.paidOrder("o1", account: "a1", claimed: nil)
            var now = t0 + 5_000
            for _ in 1...JobQueue.maxAttempts {
                let job = try #require(try await store.jobs.claim(owner: "w", limit: 1, lease: .seconds(60), now: now).first)
                #expect(try await store.jobs.finish(job, owner: "w", result: .failed("store said no"), now: now))
                now += .hours(2)
            }
            let dead = try #require(try await store.jobs.job(.verify(orderId: "o1")))
            #expect(dead.deadAt != nil && dead.lastError == "store said no")
            #expect(try await store.jobs.claim(owner: "w", limit: 1, lease: .seconds(60), now: now).isEmpty)
            #expect(try await store.jobs.status(now: now).dead == 1)
            try await store.orders.submit(orderId: "o1", receiptData: "again", at: now)
            #expect(try await store.jobs.job(.verify(orderId: "o1"))?.deadAt == nil)
        }
    }

    @Test("Releasing a worker's leases makes its jobs due at once for the others", arguments: Backend.all)
    func release(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await store.paidOrder("o1", account: "a1", claimed: nil)
            _ = try await store.jobs.claim(owner: "w1", limit: 10, lease: .seconds(60), now: t0 + 5_000)
            try await store.jobs.releaseLeases(owner: "w1", now: t0 + 6_000)
            #expect(try await store.jobs.claim(owner: "w2", limit: 10, lease: .seconds(60), now: t0 + 6_000).count == 1)
        }
    }
}
