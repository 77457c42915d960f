import Crypto
import Foundation
import SwiftASN1
import X509

/// The simulator's own certificate authority, generated at start: a root, an intermediate
/// carrying Apple's WWDR marker and a signing leaf carrying the receipt-signing marker,
/// all P-256. Receipts and JWS it signs verify in `Receipts` exactly when its root is
/// configured as a trust root, and are rejected otherwise: the real checks, a different anchor.
/// Each certificate names its key (Subject Key Identifier) and its issuer's (Authority Key
/// Identifier), as Apple's do: OpenSSL's strict verification, which Apple's own App Store
/// Server Library uses, refuses a chain without them ("Missing Authority Key Identifier").
public struct CertificateAuthority: Sendable {
    public let root: Certificate
    public let intermediate: Certificate
    public let leaf: Certificate
    let leafKey: P256.Signing.PrivateKey

    /// Certificates are valid from 2000 to 2100, so that back-dated test purchases (checked
    /// at their own dates, like Apple's) still fall inside.
    public init(name: String = "iapdesk App Store Simulator") throws {
        let notBefore = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01
        let notAfter = Date(timeIntervalSince1970: 4_102_444_800)  // 2100-01-01
        let rootKey = P256.Signing.PrivateKey()
        let intermediateKey = P256.Signing.PrivateKey()
        leafKey = P256.Signing.PrivateKey()

        let rootName = try DistinguishedName {
            CommonName("\(name) Root CA"); OrganizationName("iapdesk")
        }
        let intermediateName = try DistinguishedName {
            CommonName("\(name) WWDR CA"); OrganizationName("iapdesk")
        }
        let leafName = try DistinguishedName {
            CommonName("\(name) Receipt Signing"); OrganizationName("iapdesk")
        }

        let rootId = SubjectKeyIdentifier(hash: .init(rootKey.publicKey))
        let intermediateId = SubjectKeyIdentifier(hash: .init(intermediateKey.publicKey))
        let leafId = SubjectKeyIdentifier(hash: .init(leafKey.publicKey))
        root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey),
            notValidBefore: notBefore, notValidAfter: notAfter, issuer: rootName, subject: rootName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                rootId
            },
            issuerPrivateKey: .init(rootKey))

        var intermediateExtensions = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
            Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            intermediateId
            AuthorityKeyIdentifier(keyIdentifier: rootId.keyIdentifier)
        }
        try intermediateExtensions.append(Self.marker([1, 2, 840, 113635, 100, 6, 2, 1]))
        intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(intermediateKey.publicKey),
            notValidBefore: notBefore, notValidAfter: notAfter, issuer: rootName, subject: intermediateName,
            signatureAlgorithm: .ecdsaWithSHA256, extensions: intermediateExtensions, issuerPrivateKey: .init(rootKey))

        var leafExtensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
            leafId
            AuthorityKeyIdentifier(keyIdentifier: intermediateId.keyIdentifier)
        }
        try leafExtensions.append(Self.marker([1, 2, 840, 113635, 100, 6, 11, 1]))
        leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey),
            notValidBefore: notBefore, notValidAfter: notAfter, issuer: intermediateName, subject: leafName,
            signatureAlgorithm: .ecdsaWithSHA256, extensions: leafExtensions, issuerPrivateKey: .init(intermediateKey))
    }

    /// Apple's marker extensions hold an ASN.1 NULL.
    private static func marker(_ oid: ASN1ObjectIdentifier) -> Certificate.Extension {
        Certificate.Extension(oid: oid, critical: false, value: [0x05, 0x00])
    }

    /// An authority saved before (`saved()`): the same root, so receipts it signed then
    /// still verify, and the same signing key, so new ones verify beside them.
    public init(saved: Saved) throws {
        root = try Certificate(pemEncoded: saved.rootPEM)
        intermediate = try Certificate(pemEncoded: saved.intermediatePEM)
        leaf = try Certificate(pemEncoded: saved.leafPEM)
        leafKey = try P256.Signing.PrivateKey(pemRepresentation: saved.leafKeyPEM)
        guard leaf.publicKey == Certificate.PublicKey(leafKey.publicKey) else {
            throw SimulatorError.cannotLoad("the saved signing key does not match the saved leaf certificate")
        }
    }

    /// What it takes to sign as this authority again: the chain and the leaf's key.
    public struct Saved: Codable, Sendable {
        public var rootPEM: String
        public var intermediatePEM: String
        public var leafPEM: String
        public var leafKeyPEM: String
    }

    public func saved() throws -> Saved {
        Saved(
            rootPEM: try root.serializeAsPEM().pemString, intermediatePEM: try intermediate.serializeAsPEM().pemString,
            leafPEM: try leaf.serializeAsPEM().pemString, leafKeyPEM: leafKey.pemRepresentation)
    }

    /// The root as PEM, for a trust-roots folder.
    public func rootPEM() throws -> String {
        try root.serializeAsPEM().pemString
    }

    /// DER of each certificate, leaf first (the x5c order).
    func chainDER() throws -> [[UInt8]] {
        try [leaf, intermediate, root].map { certificate in
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return serializer.serializedBytes
        }
    }
}
