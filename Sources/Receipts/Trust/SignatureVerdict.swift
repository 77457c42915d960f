import Foundation
import X509

/// Did Apple (or the configured Xcode certificate) really sign this, and through which chain?
public struct SignatureVerdict: Sendable, Equatable {
    public enum Status: Sendable, Equatable {
        case verified
        case unverified(reason: String)
    }

    public var status: Status
    /// The certificates from signer to anchor (as embedded when the chain was not built).
    public var chain: [CertificateSummary]
    /// The digest the signature uses: `SHA-1` for pre-2023 receipts, `SHA-256` after.
    public var digest: String?
    /// The instant the chain was checked at: the receipt's creation date or the JWS's signedDate.
    public var validationTime: Date?

    public var isVerified: Bool { status == .verified }

    public var reason: String? {
        if case .unverified(let reason) = status { return reason }
        return nil
    }

    /// One line for screens and the CLI: `VERIFIED Apple Root CA ← … (SHA-256, at …)`.
    public var summary: String {
        let path = chain.reversed().map(\.commonName).joined(separator: " → ")
        switch status {
        case .verified:
            var extra: [String] = []
            if let digest { extra.append(digest) }
            if let validationTime { extra.append("checked at \(RFC3339.format(validationTime))") }
            return "VERIFIED \(path)" + (extra.isEmpty ? "" : " (\(extra.joined(separator: ", ")))")
        case .unverified(let reason):
            return "UNVERIFIED: \(reason)"
        }
    }

    static func unverified(_ reason: String, chain: [Certificate] = [], digest: String? = nil, at time: Date? = nil) -> SignatureVerdict {
        SignatureVerdict(status: .unverified(reason: reason), chain: chain.map(CertificateSummary.init), digest: digest, validationTime: time)
    }
}

/// What an operator needs to recognise a certificate.
public struct CertificateSummary: Sendable, Equatable {
    public var commonName: String
    public var issuerCommonName: String
    public var notBefore: Date
    public var notAfter: Date
    public var signatureAlgorithm: String

    init(_ certificate: Certificate) {
        commonName = Self.commonName(certificate.subject)
        issuerCommonName = Self.commonName(certificate.issuer)
        notBefore = certificate.notValidBefore
        notAfter = certificate.notValidAfter
        signatureAlgorithm = "\(certificate.signatureAlgorithm)".replacingOccurrences(of: "SignatureAlgorithm.", with: "")
    }

    static func commonName(_ name: DistinguishedName) -> String {
        for rdn in name {
            for attribute in rdn where attribute.type == .RDNAttributeType.commonName {
                return "\(attribute.value)"
            }
        }
        return name.description
    }
}
