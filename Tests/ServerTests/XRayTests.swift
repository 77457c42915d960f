import Console
import Foundation
import OrderDomain
import OrderStore
import Presentation
import TestSupport
import Testing

extension AppleSide {
    /// One original transaction in time: its purchase, order, Apple's renewal
    /// notification, an operator's transfer and what the game was told, in one timeline,
    /// the same through `subscription xray` and `:xray`. Both backends.
    @Suite("The x-ray of an original transaction")
    struct XRayTests {
        @Test(
            "The x-ray merges the purchase, its order, Apple's DID_RENEW, the renewal period, R8's owners, the game's events and the transfer's audit entry, oldest first; :xray shows it",
            arguments: Backend.all)
        func timeline(backend: Backend) async throws {
            try await IntakeTests.withServe(backend, serverAPI: true) { serve in
                await serve.wireNotifications()
                let vip = try await NotificationTests.delivered("xr-1", product: "vip_monthly", kind: .autoRenewable, account: "acct-xr", in: serve)
                let otid = vip.originalTransactionId
                let renewal = try await serve.simulator.renewAndNotify(originalTransactionId: otid)
                let renewed = try await eventually(within: 30) { try await serve.store.subscriptions.xray(otid).detail.chain.count == 2 }
                #expect(renewed, "the renewal arrived through serve")
                try await serve.store.subscriptions.transfer(
                    originalTransactionId: otid, to: "acct-other", by: Operator(name: "lin", role: .support), reason: "ticket 31: same player")

                let xray = try await serve.store.subscriptions.xray(otid)
                let lines = XRayPresentation.sections(xray).flatMap(\.lines)
                func index(_ fragment: String) -> Int? { lines.firstIndex { $0.text.contains(fragment) } }
                let purchase = try #require(index("period \(vip.transactionId)"))
                let order = try #require(index("xr-1 placed by acct-xr"))
                let didRenew = try #require(index("DID_RENEW"))
                let period = try #require(index("period \(renewal.transactionId)"))
                let transfer = try #require(index("ownership.transfer by lin"), "\(lines.map(\.text))")
                #expect(index("game") != nil && lines.contains { $0.text.hasPrefix("game") && $0.text.contains("delivered") })
                #expect(order < purchase && purchase < period && period <= didRenew + 1 && didRenew < transfer, "\(lines.map(\.text))")
                #expect(lines.contains { $0.text.contains("acct-xr → acct-other by lin") })
                let times = lines.compactMap(\.at)
                #expect(times == times.sorted(), "oldest first")

                let terminal = MemoryTerminal()
                let app = ConsoleApp(
                    session: ConsoleSession(store: serve.store, actor: Operator(name: "lin", role: .support), storeLabel: "t"), device: terminal)
                await app.open()
                await app.command("xray \(otid)")
                #expect(try terminal.screenText().contains("X-ray \(otid)"))
            }
        }
    }
}
