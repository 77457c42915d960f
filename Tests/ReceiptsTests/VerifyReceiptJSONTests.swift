import Foundation
import TestSupport
import Testing

@testable import Receipts

@Suite(.needsFixtures) struct VerifyReceiptJSONTests {
    func response(_ name: String) throws -> VerifyReceiptResponse {
        let data = try Fixtures.data("verifyreceipt-json/\(name)")
        return try VerifyReceiptResponse.decode(Array(data))
    }

    @Test func revenueCatAnswerForItsReceipt() throws {
        let answer = try response("revenuecat__verifyReceiptSample1.json")
        #expect(answer.status == 0)
        #expect(answer.environment == "Sandbox")
        #expect(answer.receipt?.bundleId == "com.revenuecat.sampleapp")
        #expect(answer.receipt?.inApp.count == 9)
        #expect(answer.latestReceiptInfo.count == 9)
        let first = try #require(answer.receipt?.inApp.first)
        #expect(first.transactionId == "1000000692879214")
        #expect(first.purchaseDate == TestTrust.date("2020-07-14T19:36:40Z"))
        #expect(first.expiresDate == TestTrust.date("2020-07-14T19:41:40Z"))
        #expect(first.isTrialPeriod == false)
        #expect(first.webOrderLineItemId == "1000000054042695")
        let renewal = try #require(answer.pendingRenewalInfo.first)
        #expect(answer.pendingRenewalInfo.count == 1)
        #expect(renewal.autoRenewStatus == true)
        #expect(renewal.autoRenewProductId == "com.revenuecat.annual_39.99.2_week_intro")
        #expect(renewal.originalTransactionId == "1000000692878476")
    }

    @Test func mbaasyUnifiedAnswerWith35Renewals() throws {
        let answer = try response("mbaasy__remote_unified.json")
        #expect(answer.receipt?.inApp.count == 7)
        #expect(answer.latestReceiptInfo.count == 35)
        #expect(answer.pendingRenewalInfo.isEmpty)
        #expect(answer.latestReceipt?.isEmpty == false)
    }

    @Test func iOS6AnswerHasItsTransactionDirectlyInReceipt() throws {
        let answer = try response("mbaasy__remote_subscription_transaction.json")
        let legacy = try #require(answer.receipt?.legacyTransaction)
        #expect(answer.receipt?.bundleId == "com.mbaasy.ios.demo")  // "bid"
        #expect(legacy.transactionId == "1000000181298734")
        #expect(legacy.originalTransactionId == "1000000180636226")
        #expect(legacy.productId == "yearly")
        #expect(legacy.webOrderLineItemId == "1000000030938713")
        // iOS 6 "expires_date" is milliseconds, not a date string.
        #expect(legacy.expiresDate == Date(timeIntervalSince1970: 1_448_346_881))
        #expect(answer.latestReceiptInfo.count == 1)  // one object, not an array
    }

    @Test func status21006CarriesTheExpiredTransaction() throws {
        let answer = try response("mbaasy__remote_expired_transaction.json")
        #expect(answer.status == 21006)
        #expect(answer.latestExpiredReceiptInfo?.productId == "yearly")
    }

    @Test func reformattedNumbersAndBooleansAreAccepted() throws {
        let answer = try response("aporat__inAppPurchaseResponse_sandbox_2014.json")
        #expect(answer.status == 0)
        let latest = try #require(answer.latestReceiptInfo.first)
        #expect(latest.originalTransactionId == "1000000093384828")  // a JSON number here
        #expect(latest.isTrialPeriod == false)  // a JSON boolean here
        #expect(latest.expiresDate == Date(timeIntervalSince1970: 1_394_619_485))
    }

    @Test func anErrorAnswer() throws {
        let answer = try response("aporat__inAppPurchaseInvalidReceiptResponse.json")
        #expect(answer.status == 21002)
        #expect(answer.receipt == nil)
    }

    @Test(arguments: [#"{"status":21199,"is-retryable":true}"#, #"{"status":"21199","is_retryable":"true"}"#, #"{"status":21199,"is_retryable":1}"#])
    func retryableFlagInEverySpelling(json: String) throws {
        let answer = try VerifyReceiptResponse.decode(Array(json.utf8))
        #expect(answer.status == 21199)
        #expect(answer.isRetryable == true)
    }

    @Test(arguments: [
        ("{", "verifyReceipt answer"), (#"{"receipt":{}}"#, "status"), (#"{"status":"zero"}"#, "status"),
        (#"{"status":0,"receipt":{"in_app":[{"purchase_date_ms":"soon"}]}}"#, "purchase_date_ms"),
        (#"{"status":0,"latest_receipt_info":[{"is_trial_period":"maybe"}]}"#, "is_trial_period"),
    ])
    func garbageGivesAnErrorNamingTheField(json: String, mention: String) {
        do {
            _ = try VerifyReceiptResponse.decode(Array(json.utf8))
            Issue.record("decoded garbage: \(json)")
        } catch {
            #expect("\(error)".contains(mention), "\(error)")
        }
    }
}
