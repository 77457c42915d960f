import Foundation
import NIOHTTP1
import OrderDomain
import TestSupport
import Testing

@testable import OrderStore

/// The Security article says `serve` logs in to PostgreSQL as a member of iapdesk_support,
/// not as the store's owner. Orders placed and receipts submitted over HTTP, a notification
/// from Apple, the worker verifying and delivering: all within that group's grants.
@Suite("serve as a support database login", .needsBinary)
struct ServeDatabaseRoleTests {
    @Test("Intake, notifications and the worker need nothing beyond iapdesk_support's grants", .needsPostgres)
    func serveAsSupport() async throws {
        let binary = try Machine.requireBinary()
        let setup = try await ServeCrashTests.Setup.make(.postgres)
        let owner = try await setup.open()
        let login = "serve_\(UUID().uuidString.prefix(6).lowercased())"
        do {
            _ = try await owner.setUpDatabaseRoles()
            _ = try await owner.grantDatabaseLogin(login, role: .support)
            let config = try String(contentsOfFile: setup.config, encoding: .utf8).replacingOccurrences(
                of: "postgres://postgres@", with: "postgres://\(login)@")
            try config.write(toFile: setup.config, atomically: true, encoding: .utf8)

            let serve = try await ServeProcess.start(binary, config: setup.config, tokens: setup.tokens, arguments: ServeCrashTests.serveArguments)
            for index in 0..<5 {
                let order = "s-\(index)", appleId = "support-\(index)@icloud"
                await setup.simulator.ledger.purchase(appleId: appleId, productId: "coins_60", kind: .consumable, appAccountToken: order)
                let receipt = try await setup.simulator.ledger.receipt(appleId: appleId)
                let placed = await serve.call(
                    .POST, "/v1/orders", json: #"{"order_id":"\#(order)","account_id":"acct-\#(index)","product_id":"coins_60"}"#, token: ServeCrashTests.token)
                #expect(placed?.status == 201, "\(String(describing: placed))")
                let answer = await serve.call(
                    .POST, "/v1/orders/\(order)/receipts?wait=10", json: #"{"receipt_data":"\#(receipt)"}"#, token: ServeCrashTests.token)
                #expect(answer?.body["state"] as? String == "delivered", "\(String(describing: answer))")
            }
            let purchase = try #require(await setup.simulator.ledger.purchases(appleId: "support-0@icloud").first)
            let refund = try await setup.simulator.notification("REFUND", about: purchase)
            let notified = await serve.call(.POST, "/apple/notifications/production", json: refund.body, token: nil)
            #expect(notified?.status == 200, "\(String(describing: notified))")
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline, try await owner.orders.find("s-0")?.state != .refunded { try await Task.sleep(for: .milliseconds(100)) }
            #expect(try await owner.orders.find("s-0")?.state == .refunded)
            #expect(try await owner.reports.counts().byState[.delivered, default: 0] == 4)
            #expect(try await owner.audit.verify() == .intact(entries: try await owner.audit.entries(limit: 1).first?.seq ?? 0))
            await serve.kill9()
        } catch {
            await owner.close()
            await setup.tearDown()
            Issue.record("\(DatabaseErrorText.describe(error) ?? "\(error)")")
            return
        }
        try? await owner.db.sql.raw("DROP ROLE IF EXISTS \(unsafeRaw: login)").run()
        await owner.close()
        await setup.tearDown()
    }
}
