import OrderDomain
import TestSupport
import Testing

@testable import OrderStore

@Suite("Refunds (R9) and the audit chain (R10)")
struct RefundAuditStoreTests {
    private func delivered(_ store: OrderStore, _ id: String, tid: String, product: String = "coins_60") async throws {
        let submission = try await store.paidOrder(id, account: "a1", product: product)
        _ = try await store.apple.apply(
            orderId: id, submissionId: submission, report: validReport([tx(tid, product: product, at: t0 + 100)]), at: t0 + 3000)
    }

    @Test("R9: a refund notification refunds the order and revokes its grant", arguments: Backend.all)
    func refundNotification(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await delivered(store, "o1", tid: "800")
            let refunded = try await store.apple.recordRefund(transactionId: "800", cancelledAt: t0 + .hours(5), at: t0 + .hours(6))
            #expect(refunded?.state == .refunded)
            let grant = try #require(try await store.orders.detail("o1").grants.first)
            #expect(grant.revokedAt == t0 + .hours(6))
            #expect(grant.revokedBy == "apple")
            #expect(try await store.reports.counts().byState[.refunded] == 1)
            #expect(try await store.reports.counts().byState[.delivered] == 0)
        }
    }

    @Test("R9: a re-verification showing cancellation_date refunds a delivered order", arguments: Backend.all)
    func refundOnReverify(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await delivered(store, "o1", tid: "801", product: "no_ads")
            let outcome = try await store.apple.apply(
                orderId: "o1", submissionId: nil,
                report: validReport([tx("801", product: "no_ads", at: t0 + 100, cancelled: t0 + .hours(1))]), at: t0 + .hours(2))
            #expect(outcome.order.state == .refunded)
            // A later answer without the cancellation never erases the refund.
            let later = try await store.apple.apply(
                orderId: "o1", submissionId: nil,
                report: validReport([tx("801", product: "no_ads", at: t0 + 100)]), at: t0 + .hours(3))
            #expect(later.order.state == .refunded)
            #expect(try await store.orders.detail("o1").transactions.first?.transaction.cancellationDate == t0 + .hours(1))
        }
    }

    @Test("R9: an upgrade's cancellation is no refund; a consumable's receipt never refunds (only a notification does)", arguments: Backend.all)
    func notRefunds(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await delivered(store, "coins", tid: "810")
            let consumable = try await store.apple.apply(
                orderId: "coins", submissionId: nil,
                report: validReport([tx("810", at: t0 + 100, cancelled: t0 + .hours(1))]), at: t0 + .hours(2))
            #expect(consumable.order.state == .delivered)
            try await delivered(store, "vip", tid: "820", product: "vip_monthly")
            var upgraded = tx("820", product: "vip_monthly", at: t0 + 100, expires: t0 + .days(30), cancelled: t0 + .days(3))
            upgraded.isUpgraded = true
            let upgrade = try await store.apple.apply(orderId: "vip", submissionId: nil, report: validReport([], latest: [upgraded]), at: t0 + .days(3))
            #expect(upgrade.order.state == .delivered)
            // The consumable's refund arrives as a notification.
            #expect(try await store.apple.recordRefund(transactionId: "810", cancelledAt: t0 + .hours(5))?.state == .refunded)
        }
    }

    @Test("R9: REFUND_REVERSED delivers a refunded order again with a new grant; REVOKE refunds like REFUND", arguments: Backend.all)
    func refundReversed(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await delivered(store, "o1", tid: "830", product: "no_ads")
            _ = try await store.apple.recordRefund(transactionId: "830", cancelledAt: t0 + .hours(1), kind: .revoke, at: t0 + .hours(1))
            #expect(try await store.orders.detail("o1").order.lastError?.contains("Family Sharing") == true)
            let again = try await store.apple.recordRefundReversed(transactionId: "830", at: t0 + .hours(2))
            #expect(again?.state == .delivered)
            let grants = try await store.orders.detail("o1").grants
            #expect(grants.map(\.kind) == [.automatic, .refundReversed])
            #expect(grants.filter { $0.revokedAt == nil }.count == 1)
            #expect(try await store.audit.entries().first?.action == .refundReversed)
            #expect(try await store.orders.detail("o1").transactions.first?.transaction.cancellationDate == nil)
        }
    }

    @Test("R9: a refund of a transaction no order claimed is kept and audited, nothing else changes", arguments: Backend.all)
    func refundOrphan(backend: Backend) async throws {
        try await withStore(backend) { store in
            let refunded = try await store.apple.recordRefund(transactionId: "nobody", cancelledAt: t0)
            #expect(refunded == nil)
            let newest = try await store.audit.entries().first
            #expect(newest?.action == .cancellationUnclaimed(.refund))
        }
    }

    @Test("R10: every change is audited, and the chain verifies", arguments: Backend.all)
    func chainVerifies(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await delivered(store, "o1", tid: "900")
            let log = try await store.audit.entries()
            #expect(log.map(\.seq) == Array((1...Int64(log.count)).reversed()))
            #expect(try await store.audit.verify() == .intact(entries: Int64(log.count)))
        }
    }

    @Test("R10: changing an entry is found at that entry", arguments: Backend.all)
    func tamperedContent(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await delivered(store, "o1", tid: "901")
            try await store.db.sql.raw("UPDATE audit_log SET reason = 'nothing to see' WHERE seq = 3").run()
            #expect(try await store.audit.verify() == .broken(seq: 3, why: .contentChanged))
        }
    }

    @Test("R10: deleting an entry, or the newest ones, is found", arguments: Backend.all)
    func tamperedDeletion(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await delivered(store, "o1", tid: "902")
            let count = try await store.audit.entries().count
            try await store.db.sql.raw("DELETE FROM audit_log WHERE seq = \(bind: count)").run()
            #expect(
                try await store.audit.verify()
                    == .broken(seq: Int64(count), why: .entriesRemoved(endsAt: Int64(count - 1), headSays: Int64(count))))
            try await store.db.sql.raw("DELETE FROM audit_log WHERE seq = 2").run()
            #expect(try await store.audit.verify() == .broken(seq: 2, why: .missing))
        }
    }
}
