import Foundation
import SwiftASN1
import X509

/// The certificates iapdesk trusts, configured by the operator (iapdesk ships none).
///
/// - `apple`: anchors for App Store receipts and JWS (Apple Root CA for PKCS#7 receipts,
///   Apple Root CA - G3 for JWS). Only self-signed certificates are accepted as anchors.
/// - `xcode`: StoreKit-testing certificates. A receipt or JWS from Xcode is trusted only
///   when its signer is byte-identical to one of these; they never anchor App Store data.
public struct TrustRoots: Sendable {
    public var apple: [Certificate]
    public var xcode: [Certificate]

    public init(apple: [Certificate] = [], xcode: [Certificate] = []) {
        self.apple = apple
        self.xcode = xcode
    }

    public static let none = TrustRoots()

    /// Loads every `.cer`, `.der`, `.crt` and `.pem` file of a directory as an Apple anchor.
    /// Certificates that are not self-signed are refused: a leaf or intermediate in the
    /// anchor set would let anything it signed pass without its real chain.
    public static func load(directory: String, xcodeCertificate: String? = nil) throws(TrustRootError) -> TrustRoots {
        let files: [String]
        do {
            files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        } catch {
            throw .unreadable(path: directory, reason: "cannot list the directory")
        }
        var roots = TrustRoots()
        for name in files where [".cer", ".der", ".crt", ".pem"].contains(where: { name.lowercased().hasSuffix($0) }) {
            let path = (directory as NSString).appendingPathComponent(name)
            for certificate in try certificates(inFile: path) {
                guard certificate.subject == certificate.issuer else {
                    throw .notAnAnchor(path: path, subject: certificate.subject.description)
                }
                roots.apple.append(certificate)
            }
        }
        if let xcodeCertificate { roots.xcode = try certificates(inFile: xcodeCertificate) }
        return roots
    }

    /// The certificates in a DER or PEM file.
    public static func certificates(inFile path: String) throws(TrustRootError) -> [Certificate] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path, reason: "cannot read the file")
        }
        do {
            if let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN CERTIFICATE-----") {
                return try PEMDocument.parseMultiple(pemString: text).map { try Certificate(pemDocument: $0) }
            }
            return [try Certificate(derEncoded: Array(data))]
        } catch {
            throw .unreadable(path: path, reason: "not a certificate (\(error))")
        }
    }
}

public enum TrustRootError: Error, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case notAnAnchor(path: String, subject: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "trust root \(path): \(reason)"
        case .notAnAnchor(let path, let subject):
            "trust root \(path): \(subject) is not self-signed; only root certificates can be trust anchors"
        }
    }
}
