import Testing
@testable import OrderStore

/// R8 through the store: the two scenarios of seed 003, and an operator's decisions.
@Suite("Subscription ownership (R8)")
struct OwnershipStoreTests {
    private let otid = "1000000692878476"

    private func period(_ n: Int, product: String = "vip_monthly") -> AppleTransaction {
        tx("\(otid.dropLast())\(n)", product: product, original: otid, at: t0 + .days(Int64(30 * n)) + 100,
           expires: t0 + .days(Int64(30 * (n + 1))), line: "line-\(n)")
    }

    private func submit(_ store: OrderStore, _ id: String, account: String, product: String = "vip_monthly", period n: Int,
                        chain: [AppleTransaction], renewing: Bool = true) async throws -> VerificationOutcome {
        let at = t0 + .days(Int64(30 * n))
        try await store.placeOrder(orderId: id, accountId: account, productId: product, at: at)
        let submission = try await store.submitReceipt(orderId: id, receiptData: "r-\(id)", at: at + 1000)
        let report = validReport([], latest: chain, renewals: [AppleRenewalInfo(originalTransactionId: otid, productId: product, autoRenewEnabled: renewing)])
        return try await store.applyVerification(orderId: id, submissionId: submission, report: report, at: at + 2000)
    }

    @Test("Seed 003 case 1: A auto-renews; B on the same phone submits the renewal → A keeps it, B disputed", arguments: Backend.all)
    func ownerStillRenewing(backend: Backend) async throws {
        try await withStore(backend) { store in
            let first = try await submit(store, "a-1", account: "A", period: 0, chain: [period(0)])
            #expect(first.ownership == .firstOwner("A"))
            #expect(first.order.state == .delivered)

            let renewal = try await submit(store, "b-1", account: "B", period: 1, chain: [period(0), period(1)])
            #expect(renewal.ownership == .ownerKeeps(owner: "A"))
            #expect(renewal.order.state == .disputed)
            #expect(try await store.orderDetail("b-1").grants.isEmpty)

            let detail = try await store.subscription(otid)
            #expect(detail.subscription?.ownerAccount == "A")
            #expect(detail.subscription?.expiresAt == t0 + .days(60))  // the renewal extended A's period
            #expect(detail.chain.map(\.submittedBy) == ["A", "B"])
            let review = try await store.disputes()
            #expect(review.map(\.verdict) == ["owner_keeps"])
            #expect(review.first?.reason == "owner A is still auto-renewing, so the renewal is theirs")
            // A disputed order is paid and undelivered: it shows in the stuck queue.
            #expect(try await store.stuckOrders(now: t0 + .days(31)).items.map(\.order.orderId) == ["b-1"])
        }
    }

    @Test("Seed 003 case 2: A turned auto-renew off; B buys on the same Apple ID → B owns; A later submits B's renewal → disputed for B", arguments: Backend.all)
    func ownerStoppedRenewing(backend: Backend) async throws {
        try await withStore(backend) { store in
            _ = try await submit(store, "a-1", account: "A", period: 0, chain: [period(0)])
            try await store.recordRenewalStatus(originalTransactionId: otid, autoRenew: false, at: t0 + .days(10))

            let bBuys = try await submit(store, "b-1", account: "B", product: "vip_quarterly", period: 1,
                                         chain: [period(0), period(1, product: "vip_quarterly")])
            #expect(bBuys.ownership == .transfer(from: "A", to: "B"))
            #expect(bBuys.order.state == .delivered)
            #expect(try await store.subscription(otid).subscription?.ownerAccount == "B")

            let aSubmits = try await submit(store, "a-2", account: "A", product: "vip_quarterly", period: 2,
                                            chain: [period(0), period(1, product: "vip_quarterly"), period(2, product: "vip_quarterly")])
            #expect(aSubmits.ownership == .ownerKeeps(owner: "B"))
            #expect(aSubmits.order.state == .disputed)
            let history = try await store.subscription(otid).ownership
            #expect(history.map(\.verdict) == ["first_owner", "transfer", "owner_keeps"])
            #expect(history.map(\.toAccount) == ["A", "B", "B"])
        }
    }

    @Test("An operator settles a dispute either way, with a reason, audited", arguments: Backend.all)
    func resolve(backend: Backend) async throws {
        try await withStore(backend) { store in
            _ = try await submit(store, "a-1", account: "A", period: 0, chain: [period(0)])
            let disputed = try await submit(store, "b-1", account: "B", period: 1, chain: [period(0), period(1)]).order

            await #expect(throws: StoreError.reasonRequired(action: "resolve disputes")) {
                try await store.resolveDispute(orderId: "b-1", expectedVersion: disputed.version, favorSubmitter: true, by: alice, reason: " ")
            }
            let settled = try await store.resolveDispute(orderId: "b-1", expectedVersion: disputed.version, favorSubmitter: true,
                                                         by: alice, reason: "ticket 4411: B is the family member who pays")
            #expect(settled.state == .delivered)
            #expect(try await store.subscription(otid).subscription?.ownerAccount == "B")
            #expect(try await store.disputes().isEmpty)
            let actions = try await store.auditLog().map(\.action)
            #expect(actions.prefix(2) == ["grant", "ownership.transfer"])
        }
    }

    @Test("Upholding the rule's verdict rejects the submitter's order", arguments: Backend.all)
    func uphold(backend: Backend) async throws {
        try await withStore(backend) { store in
            _ = try await submit(store, "a-1", account: "A", period: 0, chain: [period(0)])
            let disputed = try await submit(store, "b-1", account: "B", period: 1, chain: [period(0), period(1)]).order
            let upheld = try await store.resolveDispute(orderId: "b-1", expectedVersion: disputed.version, favorSubmitter: false, by: alice, reason: "A pays")
            #expect(upheld.state == .rejected)
            #expect(try await store.subscription(otid).subscription?.ownerAccount == "A")
        }
    }

    @Test("Transfer by an operator needs a reason and a role that may act", arguments: Backend.all)
    func operatorTransfer(backend: Backend) async throws {
        try await withStore(backend) { store in
            _ = try await submit(store, "a-1", account: "A", period: 0, chain: [period(0)])
            await #expect(throws: StoreError.forbidden(action: "transfer subscription ownership", role: .viewer)) {
                try await store.transferOwnership(originalTransactionId: otid, to: "C", by: viewer, reason: "x")
            }
            try await store.transferOwnership(originalTransactionId: otid, to: "C", by: alice, reason: "account merge, ticket 17")
            let detail = try await store.subscription(otid)
            #expect(detail.subscription?.ownerAccount == "C")
            #expect(detail.ownership.last?.decidedBy == "alice")
            #expect(try await store.account("C").subscriptions.map(\.originalTransactionId) == [otid])
        }
    }
}
