import Foundation
import OrderDomain
import Presentation
import TestSupport
import Testing

@testable import OrderStore

/// What an audit entry records beside its action (the order's move, the act's particulars)
/// is kept as facts, chained with the entry, on both backends; entries written before read
/// back as the words they kept; Presentation alone says either.
@Suite("Audit details kept as facts")
struct AuditDetailTests {
    @Test(
        "A verification's entries keep the order's moves and the purchase found as facts, chained: changing them breaks the chain there", arguments: Backend.all
    )
    func deliveryKeptAsFacts(backend: Backend) async throws {
        try await withStore(backend) { store in
            _ = try await store.answeredOrder("o1", account: "a1", [tx("500", at: t0 + 100)])
            let entries = try await store.orders.detail("o1").audit
            let delivery = try #require(entries.first { $0.detail.move?.to == .delivered })
            #expect(delivery.detail.move?.from == .verified && delivery.grants != nil, "the delivery names its grant")
            let verified = try #require(entries.first { $0.detail.move?.to == .verified })
            guard case .verified(transactionId: "500", _)? = verified.detail.fact else {
                Issue.record("the verification keeps the purchase it found: \(verified.detail)")
                return
            }
            #expect(verified.said.hasPrefix("receipt_received → verified; transaction 500 in "), "\(verified.said)")
            let received = try #require(entries.first { $0.action == .receiptReceived })
            #expect(received.detail == AuditDetail(move: .init(from: .pendingPayment, to: .receiptReceived), .submission(id: 1, source: .client, whileIn: nil)))
            #expect(try await store.audit.verify().isIntactForTest)

            var forged = verified.detail
            forged.fact = .verified(transactionId: "999", environment: .production)
            try await store.db.sql.raw("UPDATE audit_log SET detail = \(bind: try forged.storedText()) WHERE seq = \(bind: verified.seq)").run()
            #expect(try await store.audit.verify() == .broken(seq: verified.seq, why: .contentChanged))
        }
    }

    @Test("An operator's act keeps its particulars as facts: a note's id, an app's fields, said in the words support knew", arguments: Backend.all)
    func operatorActsKeptAsFacts(backend: Backend) async throws {
        try await withStore(backend) { store in
            let app = StoreApp(bundleId: "com.studio.dragon.android", marketplace: .googlePlay, game: Self.game, name: "Dragon (Android)")
            try await store.catalogue.addApp(StoreApp(bundleId: Self.game), by: Operator(name: "root", role: .admin), reason: "the game")
            try await store.catalogue.addApp(app, by: Operator(name: "root", role: .admin), reason: "Android")
            let entry = try #require(try await store.audit.entries().first { $0.action == .appAdd && $0.target == .app(app.bundleId) })
            #expect(entry.detail == AuditDetail(.app(app)))
            #expect(entry.said == "Google Play package, Dragon (Android), game \(Self.game)")
        }
    }

    private static let game = "com.studio.dragon"

    @Test("The stored text: empty for none, a bare move written without the encoder yet byte for byte its output, every value read back")
    func storedText() throws {
        #expect(try AuditDetail().storedText() == "")
        #expect(AuditDetail(storedText: "") == AuditDetail())
        for from in OrderState.allCases {
            for to in OrderState.allCases {
                let move = AuditDetail(move: .init(from: from, to: to))
                #expect(try move.storedText() == move.json())
                #expect(AuditDetail(storedText: try move.storedText()) == move)
            }
        }
        let facts: [AuditDetail.Fact] = [
            .nextTry(at: t0, ourSetup: true), .nextTry(at: nil, ourSetup: false), .owner(from: nil, to: "a2"),
            .consumptionAnswer(
                transactionId: "700",
                ConsumptionAnswer(
                    customerConsented: true, consumptionPercentage: 80_000, deliveryStatus: .delivered, refundPreference: nil, sampleContentProvided: false),
                appleSaid: "4000023 invalid"),
            .words("{ not JSON"),
        ]
        for fact in facts {
            let detail = AuditDetail(move: .init(from: .verifyRetry, to: .delivered), fact)
            #expect(AuditDetail(storedText: try detail.storedText()) == detail)
        }
    }

    @Test("Entries written before details were typed read back as their words, said unchanged; text that only looks like JSON stays words")
    func wordsFromBefore() {
        for words in ["verify_retry → delivered; next try 2026-01-01T00:00:00Z", "300 synthetic orders; grants #1–#280", "{\"move\": broken"] {
            let detail = AuditDetail(storedText: words)
            #expect(detail == AuditDetail(.words(words)))
            #expect(AuditWords.detail(detail) == words)
        }
    }

    @Test("Presentation says a move and its particulars as one line, and nothing for an empty detail")
    func said() {
        #expect(AuditWords.detail(AuditDetail()) == nil)
        let retry = AuditDetail(move: .init(from: .receiptReceived, to: .verifyRetry), .nextTry(at: nil, ourSetup: false))
        #expect(AuditWords.detail(retry) == "receipt_received → verify_retry; retry schedule exhausted: needs operator")
        let share = AuditDetail(.partialRefund(transactionId: "700", share: 50_000, takesBack: true, units: 5, of: 10))
        #expect(AuditWords.detail(share) == "Apple refunded 50 % of transaction 700: take 5 of 10")
    }
}
