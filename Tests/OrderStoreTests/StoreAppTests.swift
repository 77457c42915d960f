import Foundation
import TestSupport
import Testing

@testable import OrderStore

/// A store serves one app (issue 31): it records the bundle id it is first opened with, and
/// a configuration for another app is refused with both names instead of checking every
/// receipt against the wrong one (R5).
@Suite("Store: the app a store serves")
struct StoreAppTests {
    @Test(
        "Opened for com.a, the store refuses a configuration for com.b with both names; a default bundle id takes the store's; an old store records the first configured one",
        arguments: Backend.all)
    func oneApp(backend: Backend) async throws {
        let location = try await backend.freshLocation()
        let first = try await OrderStore.open(location, settings: StoreSettings(bundleId: "com.studio.dragon"))
        await first.close()

        await #expect(throws: StoreError.otherApp(store: "com.studio.dragon", configured: "com.studio.kitten")) {
            try await OrderStore.open(location, settings: StoreSettings(bundleId: "com.studio.kitten"))
        }
        #expect(StoreError.otherApp(store: "com.studio.dragon", configured: "com.studio.kitten").description.contains("bundle_id = \"com.studio.dragon\""))

        var unconfigured = StoreSettings(bundleId: "com.example.game")
        unconfigured.bundleIdConfigured = false
        let adopted = try await OrderStore.open(location, settings: unconfigured)
        #expect(adopted.settings.bundleId == "com.studio.dragon", "R5 checks receipts against the store's own app")
        await adopted.close()

        // A store from before this check has no record: the first configured open writes it.
        let old = try await backend.freshLocation()
        var none = StoreSettings(bundleId: "com.example.game")
        none.bundleIdConfigured = false
        await (try await OrderStore.open(old, settings: none)).close()
        await (try await OrderStore.open(old, settings: StoreSettings(bundleId: "com.studio.kitten"))).close()
        await #expect(throws: StoreError.otherApp(store: "com.studio.kitten", configured: "com.studio.dragon")) {
            try await OrderStore.open(old, settings: StoreSettings(bundleId: "com.studio.dragon"))
        }
    }
}
