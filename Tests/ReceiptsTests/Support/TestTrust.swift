import Foundation
import TestSupport
import Testing
import X509

@testable import Receipts

/// Trust roots built from the fixture certificates, the way an operator would configure them.
enum TestTrust {
    static func certificates(_ name: String) throws -> [Certificate]? {
        guard let data = try Fixtures.data("certs/\(name)") else { return nil }
        let path = Scratch.url("iapdesk-cert-\(UUID().uuidString)-\(name)").path
        #expect(FileManager.default.createFile(atPath: path, contents: data))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try TrustRoots.certificates(inFile: path)
    }

    static let appleRootName = "tpinappreceipt__AppleIncRootCertificate.cer"
    static let appleRootG3Name = "asslswift-SignedDataVerifierTests__AppleRootCA-G3.der"
    static let storeKitName = "tpinappreceipt__StoreKitTestCertificate.cer"
    static let testCAName = "asslswift__testCA.der"

    /// Apple Root CA (receipts) and Apple Root CA - G3 (JWS); no Xcode certificate.
    static func apple() throws -> TrustRoots? {
        guard let root = try certificates(appleRootName), let g3 = try certificates(appleRootG3Name) else { return nil }
        return TrustRoots(apple: root + g3)
    }

    static func appleAndXcode() throws -> TrustRoots? {
        guard var trust = try apple(), let storeKit = try certificates(storeKitName) else { return nil }
        trust.xcode = storeKit
        return trust
    }

    static func date(_ text: String) -> Date {
        RFC3339.parse(text) ?? .distantPast
    }
}
