import Foundation
import TestSupport
import Testing

@testable import Receipts

/// iOS 6 transaction receipts: decoded fully, signature checked as far as the format allows.
@Suite(.needsFixtures) struct TransactionReceiptTests {
    func receipt(_ name: String) throws -> TransactionReceipt {
        let text = try Fixtures.text("legacy-transaction-receipts/\(name)")
        guard case .transactionReceipt(let receipt) = try AppleDataDetector.detect(Array(text.utf8)) else {
            throw Machine.Missing(what: "\(name) recognised as a transaction receipt")
        }
        return receipt
    }

    @Test(arguments: [
        ("itunesiap__raw_receipt_legacy.b64", "1000000056161764", "BattleGold50", "com.vanillabreeze.igunbattle"),
        ("mbaasy__spec-receipts-subscription_transaction_legacy.b64", "1000000181298734", "yearly", "com.mbaasy.ios.demo"),
        ("revenuecat__unsupportedReceipt2_legacy_from-stackoverflow.b64", "1000000181492557", "purchaser.consumableFeature", "com.es.Purchaser"),
        ("voltrue2-inapppurchase__apple_legacy_transaction_receipt_2012.b64", "1000000046178817", "com.mindmobapp.download", "com.mindmobapp.MindMob"),
    ])
    func realTransactionReceipts(name: String, transactionId: String, productId: String, bundleId: String) throws {
        let receipt = try receipt(name)
        #expect(receipt.transactionId == transactionId)
        #expect(receipt.productId == productId)
        #expect(receipt.bundleId == bundleId)
        #expect(receipt.environment == "Sandbox")
        #expect(receipt.purchaseDate != nil)
        // Apple's 2009 certificate has a 1024-bit key: reported, never silently "verified".
        let verdict = receipt.verifySignature()
        #expect(!verdict.isVerified)
        #expect(verdict.reason?.contains("ask verifyReceipt") == true)
    }

    @Test func subscriptionFieldsOfAnIOS6Receipt() throws {
        let receipt = try receipt("mbaasy__spec-receipts-subscription_transaction_legacy.b64")
        #expect(receipt.originalTransactionId == "1000000180636226")
        #expect(receipt.webOrderLineItemId == "1000000030938713")
        #expect(receipt.expiresDate != nil)
    }

    @Test func applesSyntheticReceiptHasNoSignature() throws {
        let receipt = try receipt("asslswift__legacyTransaction.b64")
        #expect(receipt.transactionId == "33993399")
        #expect(receipt.verifySignature().reason?.contains("no signature") == true)
    }
}
