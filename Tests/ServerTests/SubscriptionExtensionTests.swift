import AppStore
import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import TestSupport
import Testing

extension AppleSide {
    /// Extending a subscription from the desk: Apple's rules checked before Apple is
    /// asked, the simulator's Extend a Subscription Renewal Date through iapdesk's client, the
    /// new end stored, the game told, the admin's reason audited. Both backends.
    @Suite("serve: subscriptions extended")
    struct SubscriptionExtensionTests {
        static let ada = Operator(name: "ada", role: .admin)

        static func send(_ serve: IntakeTests.Running) throws -> @Sendable (String, Int, Int, String, AppleEnvironment) async -> ExtensionAnswer {
            let client = try #require(serve.verifier.serverAPI)
            return { await client.extensionAnswer(originalTransactionId: $0, days: $1, reasonCode: $2, requestId: $3, environment: $4) }
        }

        @Test(
            "An admin extends an active subscription: Apple's new end is stored and the game told; a third extension in a year, 91 days, a support role or an expired subscription are refused before Apple is asked",
            arguments: Backend.all)
        func extended(backend: Backend) async throws {
            try await IntakeTests.withServe(backend, serverAPI: true) { serve in
                let vip = try await NotificationTests.delivered("x-1", product: "vip_monthly", kind: .autoRenewable, account: "acct-x", in: serve)
                let otid = vip.originalTransactionId
                let send = try Self.send(serve)
                let before = try #require(try await serve.store.subscriptions.detail(otid).subscription?.expiresAt)

                await #expect(throws: StoreError.forbidden(action: .extendSubscriptions, role: .support)) {
                    try await serve.store.extensions.extend(
                        originalTransactionId: otid, days: 7, reasonCode: 3, by: Operator(name: "lin", role: .support), reason: "outage", send: send)
                }
                await #expect(throws: AppleActionError.self) {
                    try await serve.store.extensions.extend(originalTransactionId: otid, days: 91, reasonCode: 3, by: Self.ada, reason: "outage", send: send)
                }
                let first = try await serve.store.extensions.extend(
                    originalTransactionId: otid, days: 7, reasonCode: 3, by: Self.ada, reason: "ticket 5: the servers were down a week", send: send)
                #expect(first.outcome == .sent, "\(first.appleError ?? "")")
                #expect(first.newExpiry == before + 7 * 86_400_000, "Apple's new end: 7 days later")
                #expect(try await serve.store.subscriptions.detail(otid).subscription?.expiresAt == first.newExpiry)
                let told = try await serve.store.outbox.events(orderId: "x-1").map(\.event)
                #expect(
                    told.contains { $0.type == .subscriptionRenewed && $0.payload.contains(#""until":\#(first.newExpiry ?? 0)"#) },
                    "the game hears of the new end")
                #expect(
                    try await serve.store.audit.entries().contains {
                        $0.action == .subscriptionExtend && $0.reason == "ticket 5: the servers were down a week"
                    })

                _ = try await serve.store.extensions.extend(originalTransactionId: otid, days: 3, reasonCode: 1, by: Self.ada, reason: "ticket 6", send: send)
                do {
                    _ = try await serve.store.extensions.extend(
                        originalTransactionId: otid, days: 1, reasonCode: 1, by: Self.ada, reason: "ticket 7", send: send)
                    Issue.record("a third extension in a year was sent")
                } catch AppleActionError.extensionRefused(_, let refusal) {
                    #expect(refusal == .yearlyLimit(sent: 2))
                }
                #expect(
                    try await serve.store.extensions.of(originalTransactionId: otid).map(\.outcome) == [.sent, .sent], "the refused one never reached Apple")

                try await serve.simulator.expireAndNotify(originalTransactionId: otid, reason: .voluntary, at: Date().addingTimeInterval(1))
                let expiry = try #require(await serve.simulator.notifications.entries.last?.notification)
                let expired = try await NotificationTests.applied(try await NotificationTests.post(expiry, in: serve), in: serve)
                #expect(expired.outcome == .applied)
                do {
                    _ = try await serve.store.extensions.extend(
                        originalTransactionId: "\(otid)", days: 1, reasonCode: 1, by: Self.ada, reason: "ticket 8", send: send)
                    Issue.record("an expired subscription was extended")
                } catch AppleActionError.extensionRefused(_, let refusal) {
                    #expect(refusal == .notActive(.expired))
                }
            }
        }
    }
}
