import Foundation
import TestSupport
import Testing

@testable import Receipts

/// `iapdesk receipt decode` recognises every fixture by its shape.
@Suite(.needsFixtures) struct DetectionTests {
    func detect(_ path: String) throws -> AppleData {
        let data = try Fixtures.data(path)
        return try AppleDataDetector.detect(Array(data))
    }

    @Test func everyRealFixtureIsRecognised() throws {
        let real =
            try Fixtures.files(in: "receipts") + Fixtures.files(in: "legacy-transaction-receipts")
            + Fixtures.files(in: "jws") + Fixtures.files(in: "verifyreceipt-json")
        #expect(real.count == 30, "the fixtures' receipts, transaction receipts, JWS and verifyReceipt answers")
        for path in real {
            #expect(throws: Never.self, "\(path)") { _ = try detect(path) }
        }
    }

    @Test func kindsOfInput() throws {
        let receipt = try detect("receipts/tpinappreceipt__receipt-xcode.b64")
        let notification = try detect("jws/aporat__test-notification-signed-payload_REAL-APPLE-SIGNED_sandbox_2022.json")
        let jws = try detect("jws/asslswift__xcode-signed-transaction.jws")
        let answer = try detect("verifyreceipt-json/mbaasy__remote_unified.json")
        let legacy = try detect("legacy-transaction-receipts/itunesiap__raw_receipt_legacy.b64")
        let apiError = try detect("server-api-json/asslswift__transactionIdNotFoundError.json")
        let payload = try detect("server-api-json/asslswift__signedTransaction.json")
        #expect(receipt.kindName == "app receipt (PKCS#7)")
        #expect(notification.kindName == "JSON with signed data")
        #expect(jws.kindName == "JWS transaction")
        #expect(answer.kindName == "verifyReceipt answer")
        #expect(legacy.kindName == "iOS 6 transaction receipt")
        guard case .serverAPIError(let code, _) = apiError else { Issue.record("not an API error"); return }
        #expect(code == 4_040_010)
        #expect(payload.kindName == "unsigned transaction payload (JSON)")
    }

    @Test func rawDERIsAcceptedLikeBase64() throws {
        let text = try Fixtures.text("receipts/tpinappreceipt__receipt-sandbox-g5.b64")
        let der = Array(try #require(Data(base64Encoded: text.filter { !$0.isWhitespace })))
        guard case .appReceipt(let decoded) = try AppleDataDetector.detect(der) else { Issue.record("DER not recognised"); return }
        #expect(decoded.receipt.bundleId == "dev.bonzer.weeka.app")
    }

    @Test func notificationV1NeverShowsTheSharedSecret() async throws {
        let data = try detect("verifyreceipt-json/aporat__serverNotificationV1Request_synthetic.json")
        let document = await ReceiptDocumentBuilder.build(data, trust: .none)
        let rendered = try String(decoding: JSONEncoder().encode(document), as: UTF8.self)
        #expect(rendered.contains("DID_RENEW"))
        #expect(!rendered.contains("dummy_shared_secret"))
    }

    @Test(arguments: ["", "   ", "hello world", "{\"foo\":1}", "%%%%", "AAAA", "{ not json"])
    func unknownInputIsAClearError(text: String) {
        #expect(throws: ReceiptError.self) { try AppleDataDetector.detect(Array(text.utf8)) }
    }

    @Test func documentMarksEveryNestedSignature() async throws {
        let data = try detect("jws/aporat__test-notification-signed-payload_REAL-APPLE-SIGNED_sandbox_2022.json")
        let trust = try TestTrust.apple()
        let document = await ReceiptDocumentBuilder.build(data, trust: trust)
        #expect(document.signatures.map(\.subject) == ["signedPayload"])
        #expect(document.signatures.first?.verified == true)
        #expect(document.sections.first?.fields.contains(.init(name: "data.bundleId", value: "com.Abilities")) == true)
    }
}
