import AppStore
import Foundation
import OrderDomain
import Presentation
import Server
import TestSupport
import Testing

@testable import OrderStore

extension AppleSide {
    /// Apple's record of what it sent beside what serve kept: Get Notification
    /// History with Apple's send attempts, matched by notificationUUID, so "Apple never told
    /// us" and "we lost it" read apart. Both backends, the simulator as Apple.
    @Suite("serve: Apple's send record beside ours")
    struct AppleSendHistoryTests {
        @Test(
            "A refund serve received reads 'kept'; one Apple could not deliver (serve unreachable) reads 'never delivered'; one Apple delivered that the store then lost reads 'LOST'; the transaction filter keeps to one purchase",
            arguments: Backend.all)
        func beside(backend: Backend) async throws {
            try await IntakeTests.withServe(backend, serverAPI: true) { serve in
                let sim = serve.simulator
                let start = Millis.now() - .minutes(1)
                func wire(_ url: String) async { await sim.notifications.configure(production: url, sandbox: url) }
                await wire(serve.baseURL + "/apple/notifications/production")
                var bought: [String] = []
                for (index, order) in ["h-kept", "h-never", "h-lost"].enumerated() {
                    bought.append(
                        try await NotificationTests.delivered(
                            order, product: "coins_980", kind: .consumable, account: "acct-\(order)", appleId: "h\(index)@icloud", in: serve
                        )
                        .transactionId)
                }
                try await sim.refundAndNotify(transactionId: bought[0])
                _ = try await IntakeTests.waitFor("refunded", order: "h-kept", in: serve)

                await wire("http://127.0.0.1:9/apple/notifications/production")  // nothing listens there
                try await sim.refundAndNotify(transactionId: bought[1])

                await wire(serve.baseURL + "/apple/notifications/production")
                try await sim.refundAndNotify(transactionId: bought[2])
                _ = try await IntakeTests.waitFor("refunded", order: "h-lost", in: serve)
                try await serve.store.db.sql.raw("DELETE FROM notifications WHERE transaction_id = \(bind: bought[2])").run()

                let client = try #require(serve.verifier.serverAPI)
                let decoder = NotificationDecoder(trust: sim.trustRoots, bundleIds: [sim.bundleId])
                let records = try await AppleSendHistory.compare(
                    client: client, decoder: decoder, store: serve.store, from: start, until: .now() + .minutes(1), environment: .production)
                let refunds = records.filter { $0.facts.type == "REFUND" }
                #expect(refunds.count == 3, "\(records.map(\.facts.kind))")
                func verdict(_ tid: String) -> String? {
                    refunds.first { $0.facts.transaction?.transactionId == tid }.map { AppleSendPresentation.verdict($0).text }
                }
                #expect(verdict(bought[0])?.hasPrefix("kept #") == true, "\(verdict(bought[0]) ?? "-")")
                #expect(verdict(bought[1])?.hasPrefix("never delivered") == true, "\(verdict(bought[1]) ?? "-")")
                #expect(verdict(bought[2])?.hasPrefix("LOST") == true, "\(verdict(bought[2]) ?? "-")")
                let never = try #require(refunds.first { $0.facts.transaction?.transactionId == bought[1] })
                #expect(never.attempts.first?.result == "NO_RESPONSE" && AppleSendPresentation.attempts(never).contains("NO_RESPONSE"))

                let one = try await AppleSendHistory.compare(
                    client: client, decoder: decoder, store: serve.store, from: start, until: .now() + .minutes(1), transactionId: bought[1],
                    environment: .production)
                #expect(one.map { $0.facts.transaction?.transactionId } == [bought[1]])
            }
        }
    }
}
