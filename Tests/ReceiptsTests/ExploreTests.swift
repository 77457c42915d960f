import Foundation
import Testing
@testable import Receipts

@Test func explore() async throws {
    let dir = Fixtures.directory.path + "/certs/"
    let roots = try TrustRoots(apple: TrustRoots.certificates(inFile: dir + "tpinappreceipt__AppleIncRootCertificate.cer") + TrustRoots.certificates(inFile: dir + "asslswift-SignedDataVerifierTests__AppleRootCA-G3.der") + TrustRoots.certificates(inFile: dir + "asslswift__testCA.der"), xcode: [])
    for folder in ["jws", "legacy-transaction-receipts", "server-api-json", "verifyreceipt-json"] {
        for file in try Fixtures.files(in: folder) {
            let data = try #require(try Fixtures.data(file))
            do {
                let d = try AppleDataDetector.detect(Array(data))
                print(file, "→", d.kindName)
                switch d {
                case .jws(let j, _):
                    print("   ", await j.verify(trust: roots).summary)
                    print("   ", String(decoding: j.payload.prefix(300), as: UTF8.self))
                case .signedJSON(let list):
                    for f in list { print("   ", f.path, f.kind, await f.jws?.verify(trust: roots).summary ?? f.text) }
                case .transactionReceipt(let t):
                    print("   ", t.transactionId ?? "-", t.productId ?? "-", t.bundleId ?? "-", t.environment ?? "-", t.purchaseDate as Any, t.verifySignature().summary)
                case .verifyReceiptResponse(let r):
                    print("   ", r.status, r.environment ?? "-", r.receipt?.bundleId ?? "-", r.receipt?.inApp.count ?? -1, r.latestReceiptInfo.count, r.pendingRenewalInfo.count, r.receipt?.legacyTransaction?.transactionId ?? "-", r.isRetryable as Any)
                default: break
                }
            } catch { print(file, "ERROR", error) }
        }
    }
}
