import AppStore
import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import TestSupport
import Testing

extension AppleSide {
    /// Extending every active subscriber of a product after an outage: asked of the
    /// simulator's Extend Subscription Renewal Dates for All Active Subscribers through
    /// iapdesk's client, followed by polling Get Status and by Apple's notifications (each
    /// RENEWAL_EXTENDED, each RENEWAL_EXTENSION/FAILURE, the SUMMARY). Both backends.
    @Suite("serve: every subscriber extended")
    struct MassExtensionTests {
        static let ada = Operator(name: "ada", role: .admin)

        static func send(_ serve: IntakeTests.Running) throws -> @Sendable (String, Int, Int, String, AppleEnvironment) async -> String? {
            let client = try #require(serve.verifier.serverAPI)
            return { await client.massExtensionRefusal(productId: $0, days: $1, reasonCode: $2, requestId: $3, environment: $4) }
        }

        @Test(
            "An admin extends every vip_monthly subscriber: refused first for support, 91 days, a product that does not renew or an unknown one; Apple's counts come from polling its status, then from its SUMMARY; each RENEWAL_EXTENDED moves a subscription's end; the subscriber Apple could not extend is listed; audited",
            arguments: Backend.all)
        func extendedForAll(backend: Backend) async throws {
            try await IntakeTests.withServe(backend, serverAPI: true) { serve in
                let client = try #require(serve.verifier.serverAPI)
                let subscribers = [
                    try await NotificationTests.delivered(
                        "m-a", product: "vip_monthly", kind: .autoRenewable, account: "acct-a", appleId: "a@icloud", in: serve),
                    try await NotificationTests.delivered(
                        "m-b", product: "vip_monthly", kind: .autoRenewable, account: "acct-b", appleId: "b@icloud", in: serve),
                    try await NotificationTests.delivered(
                        "m-c", product: "vip_monthly", kind: .autoRenewable, account: "acct-c", appleId: "c@icloud", in: serve),
                ]
                let before = try #require(try await serve.store.subscriptions.detail(subscribers[0].originalTransactionId).subscription?.expiresAt)
                // The third was extended twice this year already: Apple will not extend it again.
                for reason in ["ticket 1", "ticket 2"] {
                    _ = try await serve.store.extensions.extend(
                        originalTransactionId: subscribers[2].originalTransactionId, days: 1, reasonCode: 1, by: Self.ada, reason: reason,
                        send: try SubscriptionExtensionTests.send(serve))
                }
                let send = try Self.send(serve)

                await #expect(throws: StoreError.forbidden(action: .extendEverySubscriber, role: .support)) {
                    try await serve.store.extensions.extendAll(
                        productId: "vip_monthly", days: 5, reasonCode: 3, by: Operator(name: "lin", role: .support), reason: "outage", send: send)
                }
                for (product, days) in [("vip_monthly", 91), ("no_ads", 5), ("vip_nothing", 5)] {
                    await #expect(throws: StoreError.self, "\(product) +\(days)") {
                        try await serve.store.extensions.extendAll(productId: product, days: days, reasonCode: 3, by: Self.ada, reason: "outage", send: send)
                    }
                }
                #expect(try await serve.store.extensions.mass().isEmpty, "nothing refused was asked of Apple")

                // Apple's notifications are not wired yet: the counts come from polling.
                let first = try await serve.store.extensions.extendAll(
                    productId: "vip_monthly", days: 5, reasonCode: 3, by: Self.ada, reason: "outage 25 Nov, 3 h", send: send)
                #expect(first.outcome == .sent && first.inProgress, "\(first.appleError ?? "")")
                var polled = first
                let deadline = Date().addingTimeInterval(30)
                while polled.inProgress, Date() < deadline {
                    polled = try await serve.store.extensions.refreshMass(first.requestId) {
                        await client.massExtensionProgress(productId: $0, requestId: $1, environment: $2)
                    }.0
                    if polled.inProgress { try await Task.sleep(for: .milliseconds(50)) }
                }
                #expect(polled.completeAt != nil && polled.succeeded == 2 && polled.failed == 1, "\(polled)")

                await serve.wireNotifications()
                let second = try await serve.store.extensions.extendAll(
                    productId: "vip_monthly", days: 3, reasonCode: 3, by: Self.ada, reason: "outage 26 Nov", send: send)
                let done = try await eventually(within: 30) {
                    try await serve.store.extensions.mass().first { $0.requestId == second.requestId }?.completeAt != nil
                }
                #expect(done, "the SUMMARY reached serve and ended the request")
                let summarized = try #require(try await serve.store.extensions.mass().first { $0.requestId == second.requestId })
                #expect(summarized.succeeded == 2 && summarized.failed == 1)
                let extended = try await eventually(within: 30) {
                    try await serve.store.subscriptions.detail(subscribers[0].originalTransactionId).subscription?.expiresAt == before + 8 * 86_400_000
                }
                #expect(extended, "RENEWAL_EXTENDED carried Apple's new end: 5 + 3 days later")
                let failures = try await serve.store.extensions.massFailures(productId: "vip_monthly", since: second.claimedAt)
                #expect(failures.compactMap(\.facts.originalTransactionId) == [subscribers[2].originalTransactionId])
                let audited = try await serve.store.audit.entries().filter { $0.action == .subscriptionExtendAll }
                #expect(audited.count == 2 && audited.allSatisfy { $0.actor == "ada" && $0.target.description == "product:vip_monthly" })
            }
        }
    }
}
