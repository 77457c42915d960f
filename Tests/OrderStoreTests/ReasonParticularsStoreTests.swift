import Foundation
import OrderDomain
import TestSupport
import Testing

@testable import OrderStore

/// A decision's reason is kept as its code and typed facts wherever it is written (the
/// order, the attempt's verdict, the account's flag, the audit entry, the grant taken back,
/// R8's history), and reads back as the same value on both backends; words are said only
/// when shown.
@Suite("Reasons kept as codes and facts")
struct ReasonParticularsStoreTests {
    /// a1 buys tid 500 (o1); a thief submits the same receipt for o2, a replay. Returns o2's page.
    private func replayed(_ store: OrderStore) async throws -> OrderDetail {
        _ = try await store.answeredOrder("o1", account: "a1", [tx("500", at: t0 + 100)])
        _ = try await store.answeredOrder("o2", account: "thief", [tx("500", at: t0 + 100)])
        return try await store.orders.detail("o2")
    }

    @Test(
        "A replay keeps who holds the purchase as facts: on the order, its attempt's verdict, the account's flag and the rule's audit entry, read back alike",
        arguments: Backend.all)
    func replayFacts(backend: Backend) async throws {
        try await withStore(backend) { store in
            let detail = try await replayed(store)
            let expected = Why(.replay, ReasonParticulars(holder: PurchaseHolder(order: "o1", account: "a1", key: "tid:500")))
            #expect(detail.order.why == expected)
            #expect(detail.latestVerdict?.why == expected)
            #expect(try await store.accounts.detail("thief").flags.map(\.why) == [expected])
            let entry = try #require(detail.audit.first { $0.action == .verifyReplay })
            #expect(entry.why == expected && entry.reason == nil, "the rule's entry keeps the decision, not words")
            #expect(try await store.audit.verify().isIntactForTest)
        }
    }

    @Test("A rule's audit entry chains its decision: changing the kept facts breaks the chain at that entry", arguments: Backend.all)
    func auditedDecisionChained(backend: Backend) async throws {
        try await withStore(backend) { store in
            let entry = try #require(try await replayed(store).audit.first { $0.action == .verifyReplay })
            let forged = try Why(.replay, ReasonParticulars(holder: PurchaseHolder(order: "o9", account: "a9", key: "tid:500"))).json()
            try await store.db.sql.raw("UPDATE audit_log SET why = \(bind: forged) WHERE seq = \(bind: entry.seq)").run()
            #expect(try await store.audit.verify() == .broken(seq: entry.seq, why: .contentChanged))
        }
    }

    @Test(
        "A refund keeps the transaction on the order and the grant taken back, and tells the game its reason code, not words",
        arguments: Backend.all)
    func refundFacts(backend: Backend) async throws {
        try await withStore(backend) { store in
            _ = try await store.answeredOrder("o1", account: "a1", [tx("700", at: t0 + 100)])
            _ = try await store.apple.recordRefund(transactionId: "700", cancelledAt: t0 + 5000, at: t0 + 6000)
            let detail = try await store.orders.detail("o1")
            let expected = Why(.refunded(.appStore), ReasonParticulars(transactionId: "700"))
            #expect(detail.order.state == .refunded && detail.order.why == expected)
            #expect(detail.grants.first?.revokeWhy == expected && detail.grants.first?.revokeReason == nil)
            let refunded = try #require(detail.events.first { $0.event.type == .refunded })
            let body = try JSONDecoder().decode(GameEventBody.self, from: Data(refunded.event.payload.utf8))
            #expect(body.reasonCode == .refunded(.appStore) && body.reason == nil, "\(refunded.event.payload)")
            #expect(refunded.event.payload.contains("\"reason_code\":\"r9.refunded.apple\""))
        }
    }

    @Test("A failed check keeps what it saw: the product found and the one expected, typed", arguments: Backend.all)
    func checkFacts(backend: Backend) async throws {
        try await withStore(backend) { store in
            let submission = try await store.paidOrder("o1", account: "a1", claimed: "800")
            let outcome = try await store.apple.apply(
                orderId: "o1", submissionId: submission, report: validReport([tx("800", product: "no_ads", at: t0 + 500)]), at: t0 + 3000)
            let check = ReceiptCheck(name: .productId, passed: false, evidence: .differs(found: "no_ads", expected: "coins_60"))
            #expect(outcome.order.why == Why(.checkFailed(.productId), ReasonParticulars(check: check)))
            #expect(try await store.orders.detail("o1").latestVerdict?.checks.contains(check) == true)
        }
    }

    @Test("Words kept before reasons were typed read back as they were: an order's, a verdict's, a check's")
    func wordsFromBefore() throws {
        let verdict = try StoredVerdict(
            json: """
                {"checks":[{"detail":"no_ads ≠ coins_60","name":"product id","passed":false}],"orderState":"rejected","outcome":"check_failed",
                 "ownershipReason":"owner A is still auto-renewing","ownershipVerdict":"owner_keeps","reason":"check failed: product id: no_ads ≠ coins_60",
                 "sandboxInProduction":false}
                """, attempt: 1)
        #expect(verdict?.why == Why(.unclassified, ReasonParticulars(words: "check failed: product id: no_ads ≠ coins_60")))
        #expect(verdict?.checks == [ReceiptCheck(name: .productId, passed: false, evidence: .words("no_ads ≠ coins_60"))])
        #expect(verdict?.ownershipWords == "owner A is still auto-renewing" && verdict?.ownershipVerdict == .ownerKeeps)
        #expect(try ReasonParticulars(stored: nil, words: "21004 shared secret", of: "order o1") == ReasonParticulars(words: "21004 shared secret"))
        #expect(try ReasonParticulars(stored: nil, words: nil, of: "order o1") == nil)
        #expect(throws: StoreError.self) { try ReasonParticulars(stored: "{not json", words: nil, of: "order o1") }
    }
}

/// A purchase of a store this process has no settings for waits for an operator under its
/// own reason, for either store: nobody was asked, so nothing pretends an answer came.
@Suite("A store that is not configured")
struct StoreNotConfiguredTests {
    @Test("Apple's and Google's purchases without their store's settings wait for an operator, named by store")
    func notConfigured() async {
        let verifier = MarketplaceVerifier(apple: nil, googlePlay: nil)
        let apple = await verifier.verify(.appReceipt("MIIT"), claimedTransactionId: nil)
        #expect(StatusCodeRule.classify(apple) == .configuration(Why(.storeNotConfigured(.appStore))))
        let play = await verifier.verify(
            .googlePlay(PlaySubmission(packageName: "com.studio.game", productId: "coins_60", purchaseToken: "tok")), claimedTransactionId: nil)
        #expect(StatusCodeRule.classify(play) == .configuration(Why(.storeNotConfigured(.googlePlay))))
        #expect(OrderReason(code: "google.not_configured") == .storeNotConfigured(.googlePlay))
    }
}
