import AppStore
import Foundation
import OrderDomain
import OrderStore
import TestSupport
import Testing

extension AppleSide {
    /// After a transfer, the purchase is told to carry its new owner's token (Set App Account
    /// Token), so Apple's later word agrees with R8. Both backends, the simulator
    /// as Apple.
    @Suite("serve: Apple's token follows the owner")
    struct AccountTokenTests {
        @Test(
            "Rebinding is refused for an order id that is no UUID, for an owner with no order on the subscription, and for a viewer; once the new owner's UUID order holds a period, Apple's purchase carries it and the audit says so",
            arguments: Backend.all)
        func rebound(backend: Backend) async throws {
            try await IntakeTests.withServe(backend, serverAPI: true) { serve in
                let sim = serve.simulator
                let vip = try await NotificationTests.delivered(
                    "tok-a", product: "vip_monthly", kind: .autoRenewable, account: "acct-a", appleId: "t@icloud", in: serve)
                let otid = vip.originalTransactionId
                let client = try #require(serve.verifier.serverAPI)
                let send: @Sendable (UUID, String, AppleEnvironment) async -> String? = {
                    await client.accountTokenRefusal(token: $0, originalTransactionId: $1, environment: $2)
                }
                let lin = Operator(name: "lin", role: .support)
                await #expect(throws: StoreError.self, "tok-a is no UUID") {
                    try await serve.store.subscriptions.rebind(originalTransactionId: otid, by: lin, reason: "ticket 40", send: send)
                }
                try await serve.store.subscriptions.transfer(originalTransactionId: otid, to: "acct-b", by: lin, reason: "ticket 40: same player")
                await #expect(throws: StoreError.self, "acct-b has no order on it yet") {
                    try await serve.store.subscriptions.rebind(originalTransactionId: otid, by: lin, reason: "ticket 40", send: send)
                }

                // Apple renews; acct-b's game server submits the renewal under a UUID order.
                let renewal = try await sim.renewAndNotify(originalTransactionId: otid)
                let orderB = UUID().uuidString.lowercased()
                let placed = try await serve.call(.POST, "/v1/orders", json: #"{"order_id":"\#(orderB)","account_id":"acct-b","product_id":"vip_monthly"}"#)
                #expect(placed.status == 201)
                let receipt = try await sim.ledger.receipt(appleId: "t@icloud")
                let submitted = try await serve.call(
                    .POST, "/v1/orders/\(orderB)/receipts", json: #"{"receipt_data":"\#(receipt)","transaction_id":"\#(renewal.transactionId)"}"#)
                #expect(submitted.status == 202)
                #expect(try await IntakeTests.waitFor("delivered", order: orderB, in: serve)["state"] as? String == "delivered")

                await #expect(throws: StoreError.forbidden(action: .rebindToken, role: .viewer)) {
                    try await serve.store.subscriptions.rebind(originalTransactionId: otid, by: Operator(name: "vic", role: .viewer), reason: "x", send: send)
                }
                let rebound = try await serve.store.subscriptions.rebind(originalTransactionId: otid, by: lin, reason: "ticket 40: bind to acct-b", send: send)
                #expect(rebound.appleError == nil && rebound.ownerAccount == "acct-b" && rebound.orderId == orderB, "\(rebound)")
                #expect(await sim.ledger.purchase(transactionId: otid)?.appAccountToken == orderB, "Apple's purchase carries the new owner's token")
                #expect(try await serve.store.audit.entries().contains { $0.action == .subscriptionRebindToken && $0.reason == "ticket 40: bind to acct-b" })
            }
        }
    }
}
