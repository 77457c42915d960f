import AppStore
import Foundation
import OrderDomain
import OrderStore
import ReferenceGame
import SyntheticData
import TestSupport
import Testing

@testable import IAPDeskApp
@testable import IAPDeskCLI

/// The worker killed with SIGKILL while its webhooks are in flight to a slow
/// game. A send cut off is sent again after the lease; the game applies each event once
/// by its id, so every balance is exact and every account's events arrive in order.
@Suite("serve: kill -9 of the worker mid-send", .serialized, .needsBinary, .takesTurns)
struct EventSendCrashTests {
    @Test(
        "kill -9 while webhooks are in flight: after a second worker, every event confirmed, each applied exactly once, in order per account",
        arguments: Backend.all)
    func killMidSend(backend: Backend) async throws {
        let binary = try Machine.requireBinary()
        let setup = try await ServeCrashTests.Setup.make(backend)
        let secret = "crash-webhook-secret-0123456789"
        let game = ReferenceGame(secret: secret)
        let receiver = try await ReferenceGameServer.start(game)
        try "\(secret)\n".write(toFile: setup.folder + "/game-secrets", atomically: true, encoding: .utf8)
        try ("\n[game]\nwebhook_url = \"\(receiver.webhookURL)\"\nwebhook_secrets_file = \"\(setup.folder)/game-secrets\"\n")
            .appendLine(toFile: setup.config)

        // 12 accounts × 5 delivered orders: 60 events owed before any worker runs.
        let store = try await setup.open()
        let accounts = 12, perAccount = 5
        for account in 0..<accounts {
            for index in 0..<perAccount {
                let order = "k-\(account)-\(index)"
                _ = try await store.orders.place(orderId: order, accountId: "acct-\(account)", productId: "coins_60")
                let submission = try await store.orders.submit(orderId: order, receiptData: "r-\(order)")
                let purchase = AppleTransaction(
                    transactionId: "tx-\(order)", originalTransactionId: "tx-\(order)", productId: "coins_60", purchaseDate: .now() - 1_000)
                _ = try await store.apple.apply(
                    orderId: order, submissionId: submission,
                    report: VerificationReport(
                        environment: .production, appleStatus: 0, content: AppleReceiptContent(bundleId: DemoCatalogue.bundleId, inApp: [purchase])))
            }
        }
        #expect(try await store.outbox.unconfirmedCount() == Int64(accounts * perAccount))

        // A slow game: each webhook takes two seconds, so the kill finds sends in flight.
        await game.setFault(.slow)
        let worker = ["--role", "worker", "--lease-seconds", "5"]
        let first = try await ServeProcess.start(binary, config: setup.config, tokens: setup.tokens, arguments: worker)
        let deadline = Date().addingTimeInterval(60)
        while await game.applied.count < 3, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        try await Task.sleep(for: .milliseconds(500))
        await first.kill9()
        let appliedAtKill = await game.applied.count
        #expect(appliedAtKill >= 3, "the first worker had sent some")

        await game.setFault(.none)
        let second = try await ServeProcess.start(binary, config: setup.config, tokens: setup.tokens, arguments: worker)
        while try await store.outbox.unconfirmedCount() > 0, Date() < deadline.addingTimeInterval(30) { try await Task.sleep(for: .milliseconds(200)) }
        await second.kill9()

        #expect(try await store.outbox.unconfirmedCount() == 0, "every event confirmed")
        for account in 0..<accounts { #expect(await game.balance("acct-\(account)", "coins_60") == perAccount, "acct-\(account)") }
        let applied = await game.applied
        #expect(applied.count == accounts * perAccount, "each event applied once")
        // Per account, in the order written.
        for account in 0..<accounts {
            var written: [String] = []
            for index in 0..<perAccount { written += try await store.outbox.events(orderId: "k-\(account)-\(index)").map(\.event.eventId) }
            #expect(applied.filter(written.contains) == written, "acct-\(account) in order")
        }
        print("kill -9 mid-send on \(backend.rawValue): \(appliedAtKill) applied before the kill, \(await game.duplicates) sent again and ignored by id")
        await store.close()
        await receiver.stop()
        await setup.tearDown()
    }
}

extension String {
    func appendLine(toFile path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(utf8))
        try handle.close()
    }
}
