import OrderDomain
import TestSupport
import Testing

@testable import OrderStore

/// R1 under load: many receipts in one durable commit, each kept or refused on its own.
@Suite("Group commit of receipt submissions and notifications (R1)")
struct GroupCommitStoreTests {
    @Test(
        "One commit, many submissions: an unknown order or a reused idempotency key fails alone; the rest are stored, counted and audited",
        arguments: Backend.all)
    func mixedBatch(backend: Backend) async throws {
        try await withStore(backend) { store in
            for id in ["o1", "o2", "o3"] { _ = try await store.orders.place(orderId: id, accountId: "a-\(id)", productId: "coins_60", at: t0) }
            guard case .intact(let before) = try await store.audit.verify() else { Issue.record("audit chain broken"); return }
            let key = IdempotencyKey(client: "game", key: "k-1", requestHash: "first")
            let batch = [
                ReceiptSubmission(orderId: "o1", evidence: .appReceipt("AAAA")),
                ReceiptSubmission(orderId: "nobody", evidence: .appReceipt("AAAA")),
                ReceiptSubmission(orderId: "o2", evidence: .appReceipt("BBBB"), idempotency: key),
                ReceiptSubmission(orderId: "o2", evidence: .appReceipt("CCCC"), idempotency: IdempotencyKey(client: "game", key: "k-1", requestHash: "other")),
                ReceiptSubmission(orderId: "o2", evidence: .appReceipt("BBBB"), idempotency: key),
                ReceiptSubmission(orderId: "o1", evidence: .appReceipt("DDDD")),
                ReceiptSubmission(orderId: "o3", evidence: .appReceipt("")),
            ]
            let results = try await store.orders.submit(batch, at: t0 + 10)
            #expect(results.count == batch.count)
            let ids = results.map { try? $0.get().id }
            #expect(ids[0] != nil && ids[2] != nil && ids[5] != nil)
            #expect(ids[1] == nil && ids[3] == nil && ids[6] == nil, "unknown order, reused key with another body, empty receipt")
            #expect(ids[4] == ids[2], "a retry inside the same commit returns the first submission")
            if case .failure(let error) = results[3] { #expect("\(error)".contains("k-1")) }
            #expect(try results[0].get().order.state == .receiptReceived)

            #expect(try await store.orders.detail("o1").submissions.count == 2)
            #expect(try await store.orders.detail("o2").submissions.count == 1)
            #expect(try await store.orders.detail("o3").submissions.isEmpty)
            #expect(try await store.orders.detail("o3").order.state == .pendingPayment, "the failed item left no state change")
            let counts = try await store.reports.counts(now: t0 + 20)
            #expect(counts.byState[.receiptReceived] == 2 && counts.byState[.pendingPayment] == 1)
            #expect(try await store.jobs.job(.verify(orderId: "o1")) != nil)
            #expect(try await store.jobs.job(.verify(orderId: "o3")) == nil)
            // Audit entries of the failed items were dropped with them; the chain links.
            guard case .intact(let entries) = try await store.audit.verify() else { Issue.record("audit chain broken"); return }
            #expect(entries - before == 3, "receipts for o1, o2 and o1 again")
        }
    }

    @Test(
        "A batch of distinct orders (PostgreSQL writes its submissions and saves as one statement each): each stored as sent, moved, counted, audited; an empty receipt still fails alone",
        arguments: Backend.all)
    func distinctOrdersBatch(backend: Backend) async throws {
        try await withStore(backend) { store in
            let orders = (1...6).map { "d-\($0)" }
            for id in orders { _ = try await store.orders.place(orderId: id, accountId: "a-\(id)", productId: "coins_60", at: t0) }
            let hostile = "QUJD'); DROP TABLE orders; --\u{1B}[2J"
            var batch = orders.dropLast().map { ReceiptSubmission(orderId: $0, evidence: .appReceipt(hostile + $0)) }
            batch.append(
                ReceiptSubmission(orderId: "d-6", evidence: .appReceipt(hostile), idempotency: IdempotencyKey(client: "game", key: "k-d", requestHash: "h")))
            let results = try await store.orders.submit(batch, at: t0 + 10)
            let ids = try results.map { try $0.get().id }
            #expect(Set(ids).count == 6)
            for (index, id) in orders.enumerated() {
                let detail = try await store.orders.detail(id)
                #expect(detail.order.state == .receiptReceived && detail.order.version == 2)
                #expect(detail.submissions.map(\.id) == [ids[index]])
                #expect(detail.submissions.first?.receiptData == hostile + (index < 5 ? id : ""), "stored byte for byte")
            }
            #expect(try await store.reports.counts(now: t0 + 20).byState[.receiptReceived] == 6)
            guard case .intact = try await store.audit.verify() else { Issue.record("audit chain broken"); return }
            // A retry with the same key answers the same submission.
            let again = try await store.orders.submit(
                [batch[5], ReceiptSubmission(orderId: "d-1", evidence: .appReceipt("")), ReceiptSubmission(orderId: "d-2", evidence: .appReceipt("X"))],
                at: t0 + 30)
            #expect(try again[0].get().id == ids[5])
            #expect((try? again[1].get()) == nil, "the empty receipt fails alone")
            #expect(try await store.orders.detail("d-2").submissions.count == 2)
        }
    }

    @Test("A held save whose order changed since it was read fails the commit as a stale version; nothing of it is stored", .needsPostgres)
    func heldSaveStale() async throws {
        try await withStore(.postgres) { store in
            _ = try await store.orders.place(orderId: "h-1", accountId: "a-h", productId: "coins_60", at: t0)
            let read = try await store.orders.detail("h-1").order
            _ = try await store.orders.submit([ReceiptSubmission(orderId: "h-1", evidence: .appReceipt("first"))], at: t0 + 5)
            await #expect(throws: StoreError.self) {
                try await store.write(as: .system, now: t0 + 10) { tx in
                    try await tx.prefetchOrders(["h-1"], holdingWrites: true)
                    _ = try await tx.insertSubmission(
                        for: "h-1",
                        [
                            .text("h-1"), .text("a-h"), .text(nil), .text("client"), .text("held"), .integer(t0 + 10), .text(nil), .text("app_receipt"),
                        ])
                    var moved = read
                    moved.state = .receiptReceived
                    try await tx.save(moved, previous: read, action: .receiptReceived)
                }
            }
            #expect(try await store.orders.detail("h-1").submissions.map(\.receiptData) == ["first"])
            #expect(try await store.orders.detail("h-1").order.version == 2)
        }
    }

    @Test(
        "A commit's receipts owe their verifications in one write: one job per order however often it was submitted, and a job a worker holds is owed again, not lost",
        arguments: Backend.all)
    func verificationsOwedAtCommit(backend: Backend) async throws {
        try await withStore(backend) { store in
            for id in ["o1", "o2"] { _ = try await store.orders.place(orderId: id, accountId: "a-\(id)", productId: "coins_60", at: t0) }
            _ = try await store.orders.submit(orderId: "o1", receiptData: "AAAA", at: t0 + 10)
            let held = try #require(try await store.jobs.claim(owner: "w1", limit: 10, lease: .seconds(60), now: t0 + 20).first)
            #expect(held.subject == "o1")

            let batch = ["o1", "o2", "o1", "o2"].map { ReceiptSubmission(orderId: $0, evidence: .appReceipt("BBBB")) }
            let results = try await store.orders.submit(batch, at: t0 + 30)
            #expect(results.allSatisfy { (try? $0.get()) != nil })
            let jobs = try await store.jobs.list().filter { $0.kind == .verify }
            #expect(jobs.map(\.subject).sorted() == ["o1", "o2"], "one job per order")
            #expect(jobs.first { $0.subject == "o2" }?.dueAt == t0 + 30)

            // The worker that held o1's job finishes it: the receipts that came meanwhile keep it owed.
            #expect(try await store.jobs.finish(held, owner: "w1", result: .done, now: t0 + 40))
            let owedAgain = try #require(try await store.jobs.job(.verify(orderId: "o1")))
            #expect(owedAgain.leaseOwner == nil && owedAgain.dueAt == t0 + 30)
        }
    }

    @Test(
        "One commit, many notifications: a duplicate inside the batch answers the first one's id, a forged one is kept as rejected, each verified one owes its application",
        arguments: Backend.all)
    func notificationBatch(backend: Backend) async throws {
        try await withStore(backend) { store in
            func refund(_ uuid: String, _ tid: String) -> IncomingNotification {
                Self.verified(uuid, type: "REFUND", about: tx(tid, at: t0 - 60_000, cancelled: t0 - 1_000))
            }
            let forged = IncomingNotification(
                endpoint: .production, via: .receiver, raw: "garbage", rejection: .signatureRefused("the signature does not verify"), facts: NotificationFacts()
            )
            let results = try await store.notifications.receive(
                all: [refund("u-1", "tx-1"), refund("u-2", "tx-2"), refund("u-1", "tx-1"), forged], at: t0 + 10)
            let receipts = results.map { try? $0.get() }
            guard case .stored(let first)? = receipts[0], case .stored? = receipts[1], case .rejected? = receipts[3] else {
                Issue.record("\(receipts)")
                return
            }
            #expect(receipts[2] == .duplicate(id: first))
            #expect(try await store.jobs.job(.applyNotifications(key: "tx-1")) != nil)
            #expect(try await store.jobs.job(.applyNotifications(key: "tx-2")) != nil)
        }
    }

    @Test(
        "Verified notifications only (PostgreSQL stores them in one statement): a retry of one stored earlier and a duplicate inside the batch answer its id, each purchase owes one job, and a job a worker holds is owed again",
        arguments: Backend.all)
    func verifiedBatch(backend: Backend) async throws {
        try await withStore(backend) { store in
            func declined(_ uuid: String, _ tid: String) -> IncomingNotification { Self.verified(uuid, type: "REFUND_DECLINED", about: tx(tid, at: t0)) }
            let earlier = try await store.notifications.receive(all: [declined("u-0", "tx-0")], at: t0)
            guard case .stored(let earlierId)? = try? earlier.first?.get() else {
                Issue.record("\(earlier)")
                return
            }
            let held = try #require(try await store.jobs.claim(owner: "w", limit: 1, lease: .seconds(60), now: t0 + 1).first)
            #expect(held.subject == "tx-0")
            let results = try await store.notifications.receive(
                all: [declined("u-1", "tx-1"), declined("u-0", "tx-0"), declined("u-2", "tx-1"), declined("u-1", "tx-1"), declined("u-3", "tx-0")],
                at: t0 + 10)
            let receipts = results.map { try? $0.get() }
            guard case .stored(let first)? = receipts[0], case .stored(let second)? = receipts[2], case .stored? = receipts[4] else {
                Issue.record("\(receipts)")
                return
            }
            #expect(first != second)
            #expect(receipts[1] == .duplicate(id: earlierId), "Apple's retry answers the id it was stored under")
            #expect(receipts[3] == .duplicate(id: first), "the second of a uuid in one batch answers the first's id")
            #expect(try await store.notifications.list(outcome: .pending).count == 4)
            #expect(try await store.jobs.job(.applyNotifications(key: "tx-1"))?.dueAt == t0 + 10)
            // u-3 arrived while the worker held tx-0's job: its finish keeps the job, due again.
            #expect(try await store.jobs.finish(held, owner: "w", result: .done, now: t0 + 20))
            #expect(try await store.jobs.job(.applyNotifications(key: "tx-0"))?.dueAt == t0 + 10)
        }
    }

    /// A notification that passed its checks, as the receivers hand it to the store.
    static func verified(_ uuid: String, type: String, about transaction: AppleTransaction) -> IncomingNotification {
        IncomingNotification(
            endpoint: .production, via: .receiver, raw: "eyJ…", rejection: nil,
            facts: NotificationFacts(uuid: uuid, type: type, signedDate: t0, environment: "Production", transaction: transaction))
    }
}
