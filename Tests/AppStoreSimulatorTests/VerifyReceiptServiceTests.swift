import Foundation
import Receipts
import Testing

@testable import AppStoreSimulator

/// The simulator's verifyReceipt answers like Apple, from its ledger, in Apple's JSON.
@Suite struct VerifyReceiptServiceTests {
    let authority: CertificateAuthority
    let ledger: Ledger
    let service: VerifyReceiptService

    init() throws {
        authority = try CertificateAuthority()
        ledger = Ledger(bundleId: "com.iapdesk.demo", minter: ReceiptMinter(authority: authority))
        service = VerifyReceiptService(ledger: ledger, authority: authority, sharedSecret: "s3cret")
    }

    func ask(_ receipt: String, sandbox: Bool = false, password: String? = "s3cret") async throws -> VerifyReceiptResponse {
        var request: [String: Any] = ["receipt-data": receipt]
        request["password"] = password
        let body = Array(try JSONSerialization.data(withJSONObject: request))
        let answer = await service.answer(body: body, sandboxEndpoint: sandbox)
        // Through the same decoder iapdesk uses for Apple's real answers.
        return try VerifyReceiptResponse.decode(Array(try JSONSerialization.data(withJSONObject: answer)))
    }

    @Test func aProductionReceiptWithAConsumableAndASubscription() async throws {
        let gems = await ledger.purchase(appleId: "alice@icloud", productId: "gems.100", kind: .consumable)
        let vip = await ledger.purchase(appleId: "alice@icloud", productId: "vip.monthly", kind: .autoRenewable)
        let answer = try await ask(try await ledger.receipt(appleId: "alice@icloud"))
        #expect(answer.status == 0)
        #expect(answer.environment == "Production")
        #expect(answer.receipt?.bundleId == "com.iapdesk.demo")
        #expect(answer.receipt?.inApp.compactMap(\.transactionId) == [gems.transactionId, vip.transactionId])
        #expect(answer.latestReceiptInfo.map(\.transactionId) == [vip.transactionId])
        #expect(answer.pendingRenewalInfo.first?.autoRenewStatus == true)
        #expect(answer.latestReceiptInfo.first?.webOrderLineItemId == vip.webOrderLineItemId.map(String.init))
    }

    @Test func theEnvironmentRuleOfR2() async throws {
        await ledger.purchase(appleId: "tester", productId: "gems.100", kind: .consumable, sandbox: true)
        await ledger.purchase(appleId: "player", productId: "gems.100", kind: .consumable)
        let sandboxReceipt = try await ledger.receipt(appleId: "tester", sandbox: true)
        let productionReceipt = try await ledger.receipt(appleId: "player")
        #expect(try await ask(sandboxReceipt).status == 21007)
        #expect(try await ask(sandboxReceipt, sandbox: true).environment == "Sandbox")
        #expect(try await ask(productionReceipt, sandbox: true).status == 21008)
    }

    @Test func refundsRenewalsAndAutoRenewShowInLaterAnswers() async throws {
        let vip = await ledger.purchase(appleId: "bob", productId: "vip.monthly", kind: .autoRenewable, at: Date().addingTimeInterval(-40 * 86_400))
        let receipt = try await ledger.receipt(appleId: "bob")
        let renewal = try await ledger.renew(originalTransactionId: vip.originalTransactionId)
        try await ledger.refund(transactionId: renewal.transactionId, reason: 1)
        await ledger.setAutoRenew(originalTransactionId: vip.originalTransactionId, false)
        // The old receipt still learns of the renewal and its refund, as with Apple.
        let answer = try await ask(receipt)
        #expect(answer.latestReceiptInfo.map(\.transactionId) == [renewal.transactionId, vip.transactionId])
        #expect(answer.latestReceiptInfo.first?.cancellationReason == 1)
        #expect(answer.latestReceiptInfo.first?.cancellationDate != nil)
        #expect(answer.pendingRenewalInfo.first?.autoRenewStatus == false)
    }

    @Test func receiptsTheSimulatorDidNotSignAreRejected() async throws {
        let stranger = Ledger(bundleId: "com.iapdesk.demo", minter: ReceiptMinter(authority: try CertificateAuthority()))
        await stranger.purchase(appleId: "eve", productId: "gems.100", kind: .consumable)
        #expect(try await ask(try await stranger.receipt(appleId: "eve")).status == 21003)
        #expect(try await ask("bm90IGEgcmVjZWlwdA==").status == 21002)
        let garbage = await service.answer(body: Array("{{{".utf8), sandboxEndpoint: false)
        #expect(garbage["status"] as? Int == 21000)
    }

    @Test func aWrongSharedSecretIs21004() async throws {
        await ledger.purchase(appleId: "carol", productId: "vip.monthly", kind: .autoRenewable)
        #expect(try await ask(try await ledger.receipt(appleId: "carol"), password: "guess").status == 21004)
    }

    @Test func namedFaultProfiles() {
        #expect(FaultProfile.named("slow")?.latency == 3...6)
        #expect(FaultProfile.named("storm")?.faults.first?.fault == .status(21005, retryable: nil))
        #expect(FaultProfile.named("nonsense") == nil)
    }
}
