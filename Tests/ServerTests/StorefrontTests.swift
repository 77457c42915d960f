import Foundation
import OrderDomain
import OrderStore
import TestSupport
import Testing

extension AppleSide {
    /// Finance's exports say where Apple sold each purchase: the storefront of its signed
    /// transaction, kept from the App Store Server API's answer, and the app.
    @Suite("Storefront and app in the order records")
    struct StorefrontTests {
        @Test("An order verified through the Server API carries its signed transaction's storefront and the store's app", arguments: Backend.all)
        func storefront(backend: Backend) async throws {
            try await IntakeTests.withServe(backend, serverAPI: true) { serve in
                _ = try await NotificationTests.delivered("sf-1", product: "coins_60", kind: .consumable, account: "acct-sf", in: serve)
                let record = try #require(try await serve.store.orders.records(OrderFilter(accountId: "acct-sf")).items.first)
                #expect(record.storefront == "CHN", "the simulator sells in China, as the seeds' studios do")
                #expect(record.app == serve.store.settings.bundleId)
            }
        }
    }
}
