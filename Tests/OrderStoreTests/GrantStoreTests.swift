import OrderDomain
import TestSupport
import Testing

@testable import OrderStore

/// R11, roles, optimistic concurrency, orphans.
@Suite("Grants, roles and concurrency (R11)")
struct GrantStoreTests {
    private func stuck(_ store: OrderStore, _ id: String) async throws -> Order {
        let submission = try await store.paidOrder(id, account: "a1")
        return try await store.apple.apply(orderId: id, submissionId: submission, report: outage, at: t0 + 2000).order
    }

    @Test("An operator grants a stuck order with a reason; the audit names them", arguments: Backend.all)
    func manualGrant(backend: Backend) async throws {
        try await withStore(backend) { store in
            let order = try await stuck(store, "o1")
            let granted = try await store.orders.grant(orderId: "o1", expectedVersion: order.version, by: alice, reason: "ticket 123: paid, Apple down")
            #expect(granted.state == .delivered)
            let entry = try #require(try await store.audit.entries().first)
            #expect((entry.actor, entry.role, entry.action, entry.reason) == ("alice", .support, AuditAction.grant, "ticket 123: paid, Apple down"))
        }
    }

    @Test("R7: a hand delivery stays unconfirmed and keeps being verified; Apple's answer claims its purchase", arguments: Backend.all)
    func handDeliveryConfirmed(backend: Backend) async throws {
        try await withStore(backend) { store in
            let order = try await stuck(store, "o1")
            let granted = try await store.orders.grant(orderId: "o1", expectedVersion: order.version, by: alice, reason: "ticket 5", at: t0 + 5000)
            #expect(granted.isUnconfirmedDelivery)
            #expect(granted.nextRetryAt == t0 + 5000 + .seconds(10))
            #expect(try await store.apple.dueForRetry(now: t0 + .minutes(1)) == ["o1"])
            // Apple is still down: the delivery stands, the schedule goes on.
            let waiting = try await store.apple.apply(orderId: "o1", submissionId: nil, report: outage, at: t0 + 16_000)
            #expect(waiting.order.state == .delivered)
            #expect(waiting.order.nextRetryAt == t0 + 16_000 + .seconds(10))
            // Apple answers: the purchase is claimed and linked to the grant.
            let submission = try await store.orders.detail("o1").submissions.first?.id
            let confirmed = try await store.apple.apply(
                orderId: "o1", submissionId: submission, report: validReport([tx("41", at: t0 + 500)]), at: t0 + 30_000)
            #expect(confirmed.order.state == .delivered)
            #expect(confirmed.order.transactionId == "41")
            #expect(confirmed.order.nextRetryAt == nil)
            #expect(!confirmed.order.isUnconfirmedDelivery)
            #expect(try await store.orders.detail("o1").grants.map(\.transactionId) == ["41"])
            #expect(try await store.orders.orphans().isEmpty)
            // The purchase can no longer pay for another order.
            let other = try await store.paidOrder("o2", account: "a2")
            let replay = try await store.apple.apply(orderId: "o2", submissionId: other, report: validReport([tx("41", at: t0 + 500)]), at: t0 + 40_000)
            #expect(replay.order.state == .rejected)
            #expect(replay.order.replayFlag)
            // ...and a refund finds its order.
            #expect(try await store.apple.recordRefund(transactionId: "41", cancelledAt: t0 + .hours(1))?.orderId == "o1")
        }
    }

    @Test("R7: a hand delivery whose purchase already paid another order is flagged, both named, nothing taken back", arguments: Backend.all)
    func handDeliveryDoubled(backend: Backend) async throws {
        try await withStore(backend) { store in
            let order = try await stuck(store, "hand")
            _ = try await store.orders.grant(orderId: "hand", expectedVersion: order.version, by: alice, reason: "ticket 6", at: t0 + 5000)
            let submission = try await store.paidOrder("auto", account: "a1", at: t0 + 100)
            _ = try await store.apple.apply(orderId: "auto", submissionId: submission, report: validReport([tx("77", at: t0 + 150)]), at: t0 + 6000)
            let later = try await store.apple.apply(orderId: "hand", submissionId: nil, report: validReport([tx("77", at: t0 + 150)]), at: t0 + 20_000)
            #expect(later.order.state == .delivered)
            #expect(later.order.deliveryConflict == "auto")
            #expect(later.order.needsOperator)
            #expect(later.order.lastError?.contains("two deliveries for one purchase") == true)
            #expect(try await store.orders.deliveryConflicts().map(\.orderId) == ["hand"])
            #expect(try await store.orders.detail("hand").grants.filter { $0.revokedAt == nil }.count == 1)
            #expect(try await store.audit.entries().contains { $0.action == .deliveryConflict && $0.target == .order("auto") })
            #expect(later.order.reason == .doubleDelivery)
            #expect(try await store.reports.operatorAlerts().contains { $0.reason == .doubleDelivery })
        }
    }

    @Test("R11: granting a delivered order fails with who delivered it and when", arguments: Backend.all)
    func grantTwice(backend: Backend) async throws {
        try await withStore(backend) { store in
            let order = try await stuck(store, "o1")
            _ = try await store.orders.grant(orderId: "o1", expectedVersion: order.version, by: alice, reason: "first", at: t0 + 5000)
            await #expect(throws: StoreError.alreadyDelivered(orderId: "o1", by: "alice", at: t0 + 5000)) {
                try await store.orders.grant(orderId: "o1", expectedVersion: order.version, by: root, reason: "second")
            }
            #expect(try await store.orders.detail("o1").grants.count == 1)
        }
    }

    @Test("R11: two operators on two connections grant at once → exactly one grant", arguments: Backend.all)
    func concurrentGrants(backend: Backend) async throws {
        try await withTwoConnections(backend) { first, second in
            for round in 0..<5 {
                let id = "race-\(round)"
                let order = try await stuck(first, id)
                async let a = outcome { try await first.orders.grant(orderId: id, expectedVersion: order.version, by: alice, reason: "race") }
                async let b = outcome { try await second.orders.grant(orderId: id, expectedVersion: order.version, by: root, reason: "race") }
                let results = await [a, b]
                let successes = results.filter { if case .success = $0 { true } else { false } }
                #expect(successes.count == 1, "round \(round): \(results)")
                for case .failure(let error) in results {
                    switch error as? StoreError {
                    case .alreadyDelivered, .conflict: break
                    default: Issue.record("unexpected error \(error)")
                    }
                }
                #expect(try await first.orders.detail(id).grants.count == 1)
            }
        }
    }

    @Test("Acting on an order changed since it was read fails and names who changed it", arguments: Backend.all)
    func staleVersion(backend: Backend) async throws {
        try await withStore(backend) { store in
            let order = try await stuck(store, "o1")
            let submission = try #require(try await store.orders.detail("o1").submissions.first?.id)
            _ = try await store.apple.apply(orderId: "o1", submissionId: submission, report: outage, at: t0 + 60_000)
            do {
                try await store.orders.grant(orderId: "o1", expectedVersion: order.version, by: alice, reason: "stale screen")
                Issue.record("a stale grant went through")
            } catch let StoreError.conflict(orderId, changedBy, _, version) {
                #expect(orderId == "o1" && changedBy == "system" && version == order.version + 1)
            }
            #expect(try await store.orders.detail("o1").grants.isEmpty)
        }
    }

    @Test("Roles: viewers can't grant; support can't grant a rejected order; an admin can", arguments: Backend.all)
    func roles(backend: Backend) async throws {
        try await withStore(backend) { store in
            let submission = try await store.paidOrder("o1", account: "a1")
            let rejected = try await store.apple.apply(orderId: "o1", submissionId: submission, report: statusReport(21010), at: t0 + 2000).order
            await #expect(throws: StoreError.forbidden(action: .grantOrders, role: .viewer)) {
                try await store.orders.grant(orderId: "o1", expectedVersion: rejected.version, by: viewer, reason: "x")
            }
            await #expect(throws: StoreError.forbidden(action: .grantRejectedOrder, role: .support)) {
                try await store.orders.grant(orderId: "o1", expectedVersion: rejected.version, by: alice, reason: "x")
            }
            await #expect(throws: StoreError.reasonRequired(action: .grantOrders)) {
                try await store.orders.grant(orderId: "o1", expectedVersion: rejected.version, by: root, reason: "")
            }
            #expect(
                try await store.orders.grant(orderId: "o1", expectedVersion: rejected.version, by: root, reason: "Apple support confirmed").state == .delivered)
        }
    }

    @Test("An unpaid order can't be granted; revoke takes a delivery back and an admin can grant again", arguments: Backend.all)
    func revoke(backend: Backend) async throws {
        try await withStore(backend) { store in
            let unpaid = try await store.orders.place(orderId: "o0", accountId: "a1", productId: "coins_60", at: t0)
            await #expect(throws: StoreError.illegalTransition(orderId: "o0", from: .pendingPayment, to: .delivered)) {
                try await store.orders.grant(orderId: "o0", expectedVersion: unpaid.version, by: root, reason: "please")
            }
            let order = try await stuck(store, "o1")
            let granted = try await store.orders.grant(orderId: "o1", expectedVersion: order.version, by: alice, reason: "ok")
            let revoked = try await store.orders.revoke(orderId: "o1", expectedVersion: granted.version, by: alice, reason: "granted the wrong order")
            #expect(revoked.state == .rejected)
            let again = try await store.orders.grant(orderId: "o1", expectedVersion: revoked.version, by: root, reason: "it was right after all")
            #expect(again.state == .delivered)
            let grants = try await store.orders.detail("o1").grants
            #expect(grants.count == 2 && grants[0].revokedBy == "alice" && grants[1].revokedAt == nil)
        }
    }

    @Test("Operators: the first must be an admin; later only admins add; --readonly lowers", arguments: Backend.all)
    func operators(backend: Backend) async throws {
        try await withStore(backend) { store in
            let someone = Operator(name: "boot", role: .viewer)
            await #expect(throws: StoreError.firstOperatorMustBeAdmin) {
                try await store.operators.add(name: "boot", role: .support, by: someone)
            }
            try await store.operators.add(name: "boot", role: .admin, by: someone)
            try await store.operators.add(name: "alice", role: .support, by: Operator(name: "boot", role: .admin))
            await #expect(throws: StoreError.forbidden(action: .addOperators, role: .support)) {
                try await store.operators.add(name: "mallory", role: .admin, by: Operator(name: "alice", role: .support))
            }
            #expect(try await store.operators.role(of: "alice") == .support)
            #expect(try await store.operators.role(of: "stranger") == .viewer)
            #expect(try await store.operators.actor(forUser: "boot", readOnly: true).role == .viewer)
        }
    }

    @Test(
        "Two answers for one order applied at once (the worker's and an operator's, or two processes'): one delivers, the other finds it delivered; neither fails, one grant",
        arguments: Backend.all)
    func concurrentAnswers(backend: Backend) async throws {
        try await withStore(backend) { store in
            for n in 1...12 {
                let id = "race-\(n)"
                let submission = try await store.paidOrder(id, account: "a\(n)")
                let report = validReport([tx("race-tx-\(n)", at: t0 + 500)])
                async let first = store.apple.apply(orderId: id, submissionId: submission, report: report, at: t0 + 2000)
                async let second = store.apple.apply(orderId: id, submissionId: submission, report: report, at: t0 + 2000)
                let states = try await [first.order.state, second.order.state]
                #expect(states == [.delivered, .delivered], "\(id): \(states)")
                let detail = try await store.orders.detail(id)
                #expect(detail.order.state == .delivered && detail.grants.count == 1, "\(id) delivered once")
            }
        }
    }

    @Test("An orphan transaction is attached to the order it paid for, once", arguments: Backend.all)
    func attachOrphan(backend: Backend) async throws {
        try await withStore(backend) { store in
            let submission = try await store.paidOrder("paid", account: "a1")
            _ = try await store.apple.apply(
                orderId: "paid", submissionId: submission,
                report: validReport([tx("1", at: t0 + 100), tx("2", at: t0 - 50)]), at: t0 + 3000)
            #expect(try await store.orders.orphans().map(\.transaction.transactionId) == ["2"])
            // An order created after the purchase can't have paid for it (R5).
            let late = try await store.orders.place(orderId: "late", accountId: "a1", productId: "coins_60", at: t0 + .days(2))
            await #expect(throws: StoreError.self) {
                try await store.orders.attach(transactionId: "2", to: "late", expectedVersion: late.version, by: alice, reason: "ticket 8")
            }
            let lost = try await store.orders.place(orderId: "lost", accountId: "a1", productId: "coins_60", at: t0 - 100)
            let attached = try await store.orders.attach(transactionId: "2", to: "lost", expectedVersion: lost.version, by: alice, reason: "ticket 9")
            #expect(attached.transactionId == "2")
            #expect(attached.state == .delivered, "attaching delivers, as the dialog promises")
            #expect(try await store.orders.detail("lost").grants.map(\.transactionId) == ["2"])
            #expect(try await store.orders.orphans().isEmpty)
            let other = try await store.orders.place(orderId: "other", accountId: "a2", productId: "coins_60", at: t0)
            await #expect(throws: StoreError.transactionTaken(transactionId: "2", orderId: "lost")) {
                try await store.orders.attach(transactionId: "2", to: "other", expectedVersion: other.version, by: alice, reason: "again")
            }
        }
    }
}

/// `Result` for async work.
private func outcome<T: Sendable>(_ body: () async throws -> T) async -> Result<T, any Error> {
    do { return .success(try await body()) } catch { return .failure(error) }
}
