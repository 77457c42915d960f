import OrderDomain
import TestSupport
import Testing

@testable import OrderStore

/// R7 through the store: one Apple purchase delivers once.
@Suite("Replay (R7)")
struct ReplayStoreTests {
    private func verify(_ store: OrderStore, _ id: String, account: String, product: String = "coins_60", _ transactions: [AppleTransaction]) async throws
        -> Order
    {
        try await store.answeredOrder(id, account: account, product: product, transactions).order
    }

    @Test("The same transaction on a second order of the same account is a replay", arguments: Backend.all)
    func sameAccount(backend: Backend) async throws {
        try await withStore(backend) { store in
            #expect(try await verify(store, "o1", account: "a1", [tx("500", at: t0 + 100)]).state == .delivered)
            let second = try await verify(store, "o2", account: "a1", [tx("500", at: t0 + 100)])
            #expect(second.state == .rejected)
            #expect(second.replayFlag)
            #expect(second.lastError == "replay: tid:500 already claimed by order o1 of account a1")
            #expect(try await store.accounts.detail("a1").flags.map(\.flag) == [.replay])
        }
    }

    @Test("The same receipt submitted by another account is a replay, flagged on that account", arguments: Backend.all)
    func otherAccount(backend: Backend) async throws {
        try await withStore(backend) { store in
            _ = try await verify(store, "o1", account: "a1", [tx("500", at: t0 + 100)])
            let stolen = try await verify(store, "o2", account: "thief", [tx("500", at: t0 + 100)])
            #expect(stolen.lastError == "replay: tid:500 already claimed by order o1 of account a1")
            #expect(try await store.accounts.detail("thief").flags.count == 1)
            #expect(try await store.accounts.detail("a1").flags.isEmpty)
            #expect(try await store.orders.detail("o1").grants.count == 1)
            #expect(try await store.orders.detail("o2").replayHolder == "o1", "the replay names the order holding the purchase")
            #expect(try await store.orders.detail("o1").replayHolder == nil)
        }
    }

    @Test("A restored non-consumable (new transaction id, same original) does not deliver twice", arguments: Backend.all)
    func restore(backend: Backend) async throws {
        try await withStore(backend) { store in
            _ = try await verify(store, "o1", account: "a1", product: "no_ads", [tx("600", product: "no_ads", at: t0 + 100)])
            let restored = try await verify(store, "o2", account: "a2", product: "no_ads", [tx("601", product: "no_ads", original: "600", at: t0 + 200)])
            #expect(restored.state == .rejected)
            #expect(restored.lastError?.contains("otid:600") == true)
            // The restore's own key was given back: nothing half-claimed remains.
            #expect(try await store.orders.lookup("601").isEmpty)
            #expect(try await store.orders.detail("o2").replayHolder == "o1", "found by the original transaction R7 keyed it by")
        }
    }

    @Test("A non-consumable restored by the account that owns it is no replay: delivered as a restore, no flag", arguments: Backend.all)
    func restoreByOwner(backend: Backend) async throws {
        try await withStore(backend) { store in
            _ = try await verify(store, "o1", account: "a1", product: "no_ads", [tx("600", product: "no_ads", at: t0 + 100)])
            let restored = try await verify(store, "o2", account: "a1", product: "no_ads", [tx("601", product: "no_ads", original: "600", at: t0 + 200)])
            #expect(restored.state == .delivered)
            #expect(!restored.replayFlag)
            #expect(try await store.accounts.detail("a1").flags.isEmpty)
            #expect(try await store.orders.detail("o2").grants.map(\.kind) == [.restore])
            // The purchase stays claimed by the order that paid for it.
            #expect(try await store.orders.detail("o1").transactions.map(\.transaction.transactionId) == ["600"])
        }
    }

    @Test("A consumable's transaction on a second order of the owning account is still a replay (coins twice)", arguments: Backend.all)
    func consumableNoRestore(backend: Backend) async throws {
        try await withStore(backend) { store in
            _ = try await verify(store, "o1", account: "a1", [tx("500", at: t0 + 100)])
            #expect(try await verify(store, "o2", account: "a1", [tx("500", at: t0 + 100)]).replayFlag)
        }
    }

    @Test("A restored subscription period (same web order line item) does not deliver twice to another account", arguments: Backend.all)
    func subscriptionPeriod(backend: Backend) async throws {
        try await withStore(backend) { store in
            _ = try await verify(
                store, "o1", account: "a1", product: "vip_monthly",
                [tx("700", product: "vip_monthly", at: t0 + 100, expires: t0 + .days(30), line: "9001")])
            let again = try await verify(
                store, "o2", account: "a2", product: "vip_monthly",
                [tx("701", product: "vip_monthly", original: "700", at: t0 + 200, expires: t0 + .days(30), line: "9001")])
            #expect(again.lastError?.contains("wol:9001") == true)
        }
    }

    @Test("R6: a late resubmission picks the order's own purchase, not a newer one another order holds", arguments: Backend.all)
    func lateResubmission(backend: Backend) async throws {
        try await withStore(backend) { store in
            // A's receipt went missing; B bought the same product later on the same device.
            let aSubmission = try await store.paidOrder("a", account: "p1")
            _ = try await store.apple.apply(orderId: "a", submissionId: aSubmission, report: outage, at: t0 + 2000)
            let bSubmission = try await store.paidOrder("b", account: "p1", at: t0 + 10_000)
            let mine = tx("901", at: t0 + 100), theirs = tx("902", at: t0 + 10_500)
            _ = try await store.apple.apply(orderId: "b", submissionId: bSubmission, report: validReport([theirs, mine]), at: t0 + 12_000)
            #expect(try await store.orders.detail("b").order.transactionId == "902")
            let late = try await store.apple.apply(orderId: "a", submissionId: aSubmission, report: validReport([mine, theirs]), at: t0 + 20_000)
            #expect(late.order.state == .delivered)
            #expect(!late.order.replayFlag)
            #expect(try await store.accounts.detail("p1").flags.isEmpty)
        }
    }

    @Test("Re-verifying the order that owns the claim is not a replay", arguments: Backend.all)
    func ownClaim(backend: Backend) async throws {
        try await withStore(backend) { store in
            let submission = try await store.paidOrder("o1", account: "a1")
            _ = try await store.apple.apply(orderId: "o1", submissionId: submission, report: statusReport(21005), at: t0 + 2000)
            let outcome = try await store.apple.apply(
                orderId: "o1", submissionId: submission, report: validReport([tx("1", at: t0 + 100)]), at: t0 + 4000)
            #expect(outcome.order.state == .delivered)
            let again = try await store.apple.apply(orderId: "o1", submissionId: submission, report: validReport([tx("1", at: t0 + 100)]), at: t0 + 9000)
            #expect(again.order.state == .delivered)
            #expect(try await store.orders.detail("o1").grants.count == 1)
        }
    }
}
