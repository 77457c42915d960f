import Foundation
import Receipts
import Testing
import X509

/// Trust roots built from the fixture certificates, the way an operator would configure them.
public enum TestTrust {
    public static func certificates(_ name: String) throws -> [Certificate] {
        let data = try Fixtures.data("certs/\(name)")
        let path = Scratch.url("iapdesk-cert-\(UUID().uuidString)-\(name)").path
        #expect(FileManager.default.createFile(atPath: path, contents: data))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try TrustRoots.certificates(inFile: path)
    }

    public static let appleRootName = "tpinappreceipt__AppleIncRootCertificate.cer"
    public static let appleRootG3Name = "asslswift-SignedDataVerifierTests__AppleRootCA-G3.der"
    public static let storeKitName = "tpinappreceipt__StoreKitTestCertificate.cer"
    public static let testCAName = "asslswift__testCA.der"

    /// Apple Root CA (receipts) and Apple Root CA - G3 (JWS); no Xcode certificate.
    public static func apple() throws -> TrustRoots {
        TrustRoots(apple: try certificates(appleRootName) + certificates(appleRootG3Name))
    }

    public static func appleAndXcode() throws -> TrustRoots {
        var trust = try apple()
        trust.xcode = try certificates(storeKitName)
        return trust
    }

    public static func date(_ text: String) -> Date {
        RFC3339.parse(text) ?? .distantPast
    }
}
