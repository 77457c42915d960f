import Foundation
import Testing
@testable import Receipts

@Test func explore() async throws {
    let roots = try TrustRoots(apple: TrustRoots.certificates(inFile: Fixtures.directory.path + "/certs/tpinappreceipt__AppleIncRootCertificate.cer"), xcode: TrustRoots.certificates(inFile: Fixtures.directory.path + "/certs/tpinappreceipt__StoreKitTestCertificate.cer"))
    for file in try Fixtures.files(in: "receipts") {
        let text = try #require(try Fixtures.text(file))
        do {
            let d = try AppReceiptDecoder.decode(base64: text)
            let r = d.receipt
            print(file, r.receiptType ?? "-", r.bundleId ?? "-", r.appVersion ?? "-", r.receiptCreationDate.map(RFC3339.format) ?? "-", r.inAppPurchases.count, r.otherAttributes.map(\.type))
            if let p = r.inAppPurchases.first { print("   ", p) }
            let v = await d.verifySignature(trust: roots)
            print("   ", v.summary)
        } catch { print(file, "ERROR", error) }
    }
}
