import Foundation
import GooglePlaySimulator
import Testing

/// The demo keeps its Google Play simulator's purchases beside its store: opened again, Google
/// still knows every token, and the next purchase is a new one.
@Suite("Google Play simulator: a ledger saved and restored")
struct PlayLedgerSavedTests {
    @Test("Restored: every purchase, void and developer refund as saved; the next order id follows on, its token is new")
    func roundTrip() async throws {
        let first = PlayLedger()
        let kept = try await first.buy(packageName: "com.studio.game", productId: "coins_60", account: "p-1")
        let sub = try await first.buy(packageName: "com.studio.game", productId: "vip_monthly", account: "p-2")
        let voided = try await first.void(kept.token, reason: 1)
        try await first.recordDeveloperRefund(orderId: try #require(sub.orderId))
        let saved = try JSONDecoder().decode(PlayLedger.Saved.self, from: try JSONEncoder().encode(await first.saved()))

        let again = PlayLedger()
        await again.restore(saved)
        #expect(await again.purchase(token: kept.token) == (await first.purchase(token: kept.token)))
        #expect(await again.purchase(token: sub.token) == sub)
        #expect(await again.voided == [voided])
        #expect(await again.developerRefunds.keys.contains(try #require(sub.orderId)))
        let next = try await again.buy(packageName: "com.studio.game", productId: "coins_60")
        let known = Set(await again.all.map(\.token)).subtracting([next.token])
        #expect(!known.contains(next.token) && known.count == 2, "a new token")
        // The same order id the saved ledger would have given next.
        let wouldHave = try await first.buy(packageName: "com.studio.game", productId: "coins_60")
        #expect(next.orderId != kept.orderId && next.orderId != sub.orderId && next.orderId == wouldHave.orderId)
    }
}
