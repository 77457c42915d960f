import OrderDomain
import OrderStore

extension OrderStore {
    /// Opens the store, three times at most: a test that gives the store a short deadline
    /// (to see the deadline work) may miss it on connect while the whole suite shares two
    /// cores, which is the deadline working, not the test.
    public static func openPatiently(_ location: StoreLocation, settings: StoreSettings) async throws -> OrderStore {
        var tries = 1
        while true {
            do {
                return try await OrderStore.open(location, settings: settings)
            } catch  where tries < 3 {
                tries += 1
            }
        }
    }
}
