import Foundation
import TestSupport
import Testing

@testable import Receipts

/// Every real app receipt in the fixtures decodes to the values it holds.
@Suite(.needsFixtures) struct AppReceiptFixtureTests {
    func decode(_ name: String) throws -> DecodedAppReceipt {
        let text = try Fixtures.text("receipts/\(name)")
        return try AppReceiptDecoder.decode(base64: text)
    }

    @Test func revenueCatSandboxReceiptWithNineSubscriptionPurchases() throws {
        let decoded = try decode("revenuecat__base64encodedreceiptsample1_sandbox_2020.b64")
        let receipt = decoded.receipt
        #expect(receipt.receiptType == "ProductionSandbox")
        #expect(receipt.bundleId == "com.revenuecat.sampleapp")
        #expect(receipt.appVersion == "4")
        #expect(receipt.originalApplicationVersion == "1.0")
        #expect(receipt.receiptCreationDate == TestTrust.date("2020-07-22T17:39:08Z"))
        #expect(receipt.inAppPurchases.count == 9)
        #expect(Set(receipt.inAppPurchases.compactMap(\.originalTransactionId)) == ["1000000692878476"])
        let trial = try #require(receipt.inAppPurchases.first { $0.transactionId == "1000000692878476" })
        #expect(trial.isTrialPeriod == true)
        #expect(trial.productType == 3)
        #expect(trial.webOrderLineItemId == 1_000_000_054_042_694)
        let crossgrade = try #require(receipt.inAppPurchases.first { $0.transactionId == "1000000696553650" })
        #expect(crossgrade.productId == "com.revenuecat.annual_39.99.2_week_intro")
        #expect(crossgrade.expiresDate == TestTrust.date("2020-07-22T18:39:06Z"))
        // Apple writes an empty 1712 for "not cancelled".
        #expect(receipt.inAppPurchases.allSatisfy { $0.cancellationDate == nil })
    }

    @Test func mbaasyUnifiedReceiptMixesConsumablesAndSubscriptions() throws {
        let receipt = try decode("mbaasy__spec-receipts-unified_sandbox_2015.b64").receipt
        #expect(receipt.bundleId == "com.mbaasy.ios.demo")
        #expect(receipt.receiptCreationDate == TestTrust.date("2015-08-13T07:50:46Z"))
        #expect(receipt.inAppPurchases.count == 7)
        #expect(Set(receipt.inAppPurchases.compactMap(\.originalTransactionId)) == ["1000000166865231", "1000000166965150"])
        #expect(Set(receipt.inAppPurchases.compactMap(\.productId)) == ["consumable", "monthly"])
        let consumable = try #require(receipt.inAppPurchases.first { $0.transactionId == "1000000166865231" })
        #expect(consumable.productType == 1)
        #expect(consumable.purchaseDate == TestTrust.date("2015-08-07T20:37:55Z"))
    }

    @Test func sha256SandboxReceiptOfAnAnnualSubscription() throws {
        let receipt = try decode("tpinappreceipt__receipt-sandbox-g5.b64").receipt
        #expect(receipt.bundleId == "dev.bonzer.weeka.app")
        #expect(receipt.receiptCreationDate == TestTrust.date("2025-12-26T18:39:47Z"))
        #expect(receipt.inAppPurchases.count == 2)
        #expect(receipt.inAppPurchases.allSatisfy { $0.originalTransactionId == "2000001092134138" })
        let first = try #require(receipt.inAppPurchases.first { $0.transactionId == "2000001092134138" })
        #expect(first.productId == "dev.bonzer.weeka.app.subscription.pro.annual")
        #expect(first.webOrderLineItemId == 2_000_000_123_357_229)  // needs 64 bits
        #expect(first.expiresDate == TestTrust.date("2025-12-26T18:19:07Z"))
    }

    @Test func largeLegacyReceiptWith187Purchases() throws {
        let receipt = try decode("tpinappreceipt__receipt-sandbox-legacy.b64").receipt
        #expect(receipt.bundleId == "com.nutcall.alert")
        #expect(receipt.receiptCreationDate == TestTrust.date("2020-05-06T18:28:49Z"))
        #expect(receipt.inAppPurchases.count == 187)
        #expect(Set(receipt.inAppPurchases.compactMap(\.originalTransactionId)) == ["1000000603177571"])
        #expect(
            Set(receipt.inAppPurchases.compactMap(\.productId)) == [
                "com.nutcallalert.inapp.lite", "com.nutcallalert.inapp.optimum", "com.nutcallalert.inapp.pro",
            ])
    }

    @Test func macReceiptWithoutPurchases() throws {
        let receipt = try decode("tpinappreceipt__receipt-crash.b64").receipt
        #expect(receipt.bundleId == "de.holtwick.mac.PDFify")
        #expect(receipt.appVersion == "3.3.1b4")
        #expect(receipt.receiptCreationDate == TestTrust.date("2020-10-30T10:54:04Z"))
        #expect(receipt.inAppPurchases.isEmpty)
    }

    @Test func xcodeReceiptsAreIndefiniteLengthBERWithOffsetDates() throws {
        let receipt = try decode("tpinappreceipt__receipt-xcode.b64").receipt
        #expect(receipt.receiptType == "Xcode")
        #expect(receipt.bundleId == "net.zachariadis.cyclemaps")
        #expect(receipt.appVersion == "31.10.0")
        // Written as 2020-07-22T18:33:15+0100.
        #expect(receipt.receiptCreationDate == TestTrust.date("2020-07-22T17:33:15Z"))
        #expect(receipt.inAppPurchases.count == 1)
        let purchase = try #require(receipt.inAppPurchases.first)
        #expect(purchase.productId == "CYCLEMAPS_PREMIUM")
        #expect(purchase.transactionId == "0")
        #expect(purchase.originalTransactionId == nil)  // Xcode omits 1705
    }

    @Test func xcodeReceiptWithoutOriginalPurchaseDate() throws {
        let receipt = try decode("tpinappreceipt__receipt-no-orig-purchase-date.b64").receipt
        #expect(receipt.bundleId == "com.nutcall.alert")
        #expect(receipt.originalPurchaseDate == nil)
        #expect(receipt.receiptCreationDate == TestTrust.date("2021-04-03T19:38:45Z"))  // +0300 in the receipt
        #expect(receipt.inAppPurchases.first?.productId == "com.nutcallalert.inapp.optimum")
    }

    @Test func xcodeReceiptsFromApplesLibrary() throws {
        let empty = try decode("asslswift__xcode-app-receipt-empty.b64").receipt
        let withTransaction = try decode("asslswift__xcode-app-receipt-with-transaction.b64").receipt
        #expect(empty.bundleId == "com.example.naturelab.backyardbirds.example")
        #expect(empty.inAppPurchases.isEmpty)
        let purchase = try #require(withTransaction.inAppPurchases.first)
        #expect(withTransaction.inAppPurchases.count == 1)
        #expect(purchase.productId == "pass.premium")
        #expect(purchase.transactionId == "0")
        #expect(purchase.isInIntroOfferPeriod == true)
        #expect(purchase.expiresDate == TestTrust.date("2023-11-19T01:45:36Z"))
    }
}
