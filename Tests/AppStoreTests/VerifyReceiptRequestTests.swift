import Foundation
import Testing

@testable import AppStore

/// The body sent to verifyReceipt, written out by hand, is JSON that reads back to exactly
/// what was sent, whatever the stored receipt text holds.
@Suite("verifyReceipt's request body")
struct VerifyReceiptRequestTests {
    @Test("Receipt data and the shared secret read back exactly, quotes, backslashes, control characters and any script included")
    func readsBack() throws {
        let secret = Secret(value: #"s3cr"et\ü"#, origin: "test")
        for receipt in ["MIIT+/abc==", "quote \" backslash \\ tab \t nul \u{0} bell \u{7} ü 漢字 🐉"] {
            for withSecret in [true, false] {
                let endpoints = VerifyReceiptEndpoints(productionURL: "http://p", sandboxURL: "http://s", sharedSecret: withSecret ? secret : nil)
                let body = VerifyReceiptClient.requestBody(receipt, endpoints)
                let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
                #expect(object["receipt-data"] as? String == receipt)
                #expect(object["exclude-old-transactions"] as? Bool == false)
                #expect(object["password"] as? String == (withSecret ? secret.value : nil))
                #expect(object.count == (withSecret ? 3 : 2))
            }
        }
    }
}
