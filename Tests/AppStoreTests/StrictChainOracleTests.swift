import Crypto
import Foundation
import Receipts
import SwiftASN1
import TestSupport
import Testing
import X509

/// iapdesk's JWS verification is at least as strict as Apple's own: signed transactions
/// whose certificate chain differs from Apple's in one way each go to Apple's
/// `SignedDataVerifier` (strict, offline, `AppleLibrary/chains.py`) and to iapdesk's
/// verifier. Every chain Apple's refuses, iapdesk refuses too, saying why; and what Apple's
/// accepts, iapdesk accepts, so a chain Apple really sends is never refused for a rule
/// Apple does not keep.
@Suite(
    "JWS chains judged by Apple's SignedDataVerifier",
    .needs("Python with app-store-server-library (pip install app-store-server-library)") { AppleLibrary.python != nil })
struct StrictChainOracleTests {
    static let bundleId = "com.example.game"
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("AppleLibrary/chains.py").path

    /// One way a chain can differ from Apple's; the defaults are Apple's shape.
    struct Variant {
        var name: String
        var leafAKID = true
        var intermediateAKID = true
        var intermediateSKID = true
        var rootSKID = true
        var intermediateConstraintsCritical = true
        var intermediateKeyUsage = true
        var leafSignsCertificates = false
        var akidCritical = false
        var leafMarker = true
        var intermediateMarker = true
        var leafExpired = false
        var x5c: [Int] = [0, 1, 2]
        var alg = "ES256"
    }

    static let variants: [Variant] = [
        Variant(name: "Apple's shape"),
        Variant(name: "leaf without Authority Key Identifier", leafAKID: false),
        Variant(name: "intermediate without Authority Key Identifier", intermediateAKID: false),
        Variant(name: "intermediate without Subject Key Identifier", intermediateSKID: false),
        Variant(name: "root without Subject Key Identifier", rootSKID: false),
        Variant(name: "intermediate's basic constraints not critical", intermediateConstraintsCritical: false),
        Variant(name: "intermediate without key usage", intermediateKeyUsage: false),
        Variant(name: "leaf may sign certificates", leafSignsCertificates: true),
        Variant(name: "critical Authority Key Identifier", akidCritical: true),
        Variant(name: "leaf without Apple's marker", leafMarker: false),
        Variant(name: "intermediate without Apple's marker", intermediateMarker: false),
        Variant(name: "leaf expired before the signed date", leafExpired: true),
        Variant(name: "x5c of leaf and intermediate only", x5c: [0, 1]),
        Variant(name: "x5c with the root twice", x5c: [0, 1, 2, 2]),
        Variant(name: "alg ES384", alg: "ES384"),
    ]

    @Test("Every chain Apple's verifier refuses, iapdesk refuses with a reason; every chain it accepts, iapdesk accepts")
    func atLeastAsStrictAsApple() async throws {
        let python = try #require(AppleLibrary.python, "a Python with app-store-server-library")
        let root = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName { CommonName("Oracle Root CA") }
        var cases: [[String: String]] = []
        var mine: [String: String?] = [:]
        var rootCertificate: Certificate?
        for variant in Self.variants {
            let (chain, leafKey) = try Self.chain(variant, rootKey: root, rootName: rootName)
            rootCertificate = chain[2]
            let jws = try Self.sign(variant, chain: variant.x5c.map { chain[$0] }, key: leafKey)
            cases.append(["name": variant.name, "jws": jws])
            do {
                let _: JWSTransaction = try await JWS(compact: jws).verified(
                    as: JWSTransaction.self, trust: TrustRoots(apple: [chain[2]]), bundleId: Self.bundleId)
                mine[variant.name] = .some(nil)
            } catch {
                mine[variant.name] = "\(error)"
            }
        }
        var serializer = DER.Serializer()
        try serializer.serialize(try #require(rootCertificate))
        let setup: [String: Any] = [
            "rootDER": Data(serializer.serializedBytes).base64EncodedString(), "bundleId": Self.bundleId, "appAppleId": 1_000_000_001,
            "cases": cases,
        ]
        let apple = try await AppleLibrary.run(python, script: Self.script, input: try JSONSerialization.data(withJSONObject: setup))
        #expect(apple.count == Self.variants.count, "Apple's verifier judged every chain: \(apple)")
        for verdict in apple {
            let refusal = mine[verdict.name] ?? nil
            print(
                "chain \(verdict.name): Apple \(verdict.ok ? "accepts" : "refuses (\(verdict.detail))"); iapdesk \(refusal.map { "refuses: \($0)" } ?? "accepts")"
            )
            #expect(verdict.ok == (refusal == nil), "\(verdict.name): Apple \(verdict.ok ? "accepts" : "refuses"), iapdesk \(refusal ?? "accepts")")
        }
        #expect(
            apple.filter(\.ok).map(\.name).sorted() == [
                "Apple's shape", "intermediate's basic constraints not critical", "root without Subject Key Identifier",
            ])
    }

    /// Root, intermediate and leaf for `variant`, all under `rootKey`; and the leaf's key.
    static func chain(_ variant: Variant, rootKey: P256.Signing.PrivateKey, rootName: DistinguishedName) throws -> ([Certificate], P256.Signing.PrivateKey) {
        let intermediateKey = P256.Signing.PrivateKey()
        let leafKey = P256.Signing.PrivateKey()
        let intermediateName = try DistinguishedName { CommonName("Oracle WWDR CA") }
        let leafName = try DistinguishedName { CommonName("Oracle Signing") }
        let rootId = SubjectKeyIdentifier(hash: .init(rootKey.publicKey))
        let intermediateId = SubjectKeyIdentifier(hash: .init(intermediateKey.publicKey))
        func akid(_ id: SubjectKeyIdentifier) throws -> Certificate.Extension {
            try Certificate.Extension(AuthorityKeyIdentifier(keyIdentifier: id.keyIdentifier), critical: variant.akidCritical)
        }
        func marker(_ oid: ASN1ObjectIdentifier) -> Certificate.Extension { Certificate.Extension(oid: oid, critical: false, value: [0x05, 0x00]) }
        func certificate(
            _ subject: DistinguishedName, _ issuer: DistinguishedName, _ key: P256.Signing.PublicKey, by signer: P256.Signing.PrivateKey,
            expired: Bool = false, _ extensions: [Certificate.Extension]
        ) throws -> Certificate {
            try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(key), notValidBefore: Date(timeIntervalSince1970: 946_684_800),
                notValidAfter: expired ? Date().addingTimeInterval(-30 * 86_400) : Date(timeIntervalSince1970: 4_102_444_800),
                issuer: issuer, subject: subject, signatureAlgorithm: .ecdsaWithSHA256, extensions: try Certificate.Extensions(extensions),
                issuerPrivateKey: .init(signer))
        }
        var rootExtensions = [
            try Certificate.Extension(BasicConstraints.isCertificateAuthority(maxPathLength: nil), critical: true),
            try Certificate.Extension(KeyUsage(keyCertSign: true, cRLSign: true), critical: true),
        ]
        if variant.rootSKID { rootExtensions.append(try rootId.makeCertificateExtension()) }
        var intermediateExtensions = [
            try Certificate.Extension(
                BasicConstraints.isCertificateAuthority(maxPathLength: 0), critical: variant.intermediateConstraintsCritical)
        ]
        if variant.intermediateKeyUsage {
            intermediateExtensions.append(try Certificate.Extension(KeyUsage(keyCertSign: true, cRLSign: true), critical: true))
        }
        if variant.intermediateSKID { intermediateExtensions.append(try intermediateId.makeCertificateExtension()) }
        if variant.intermediateAKID { intermediateExtensions.append(try akid(rootId)) }
        if variant.intermediateMarker { intermediateExtensions.append(marker([1, 2, 840, 113635, 100, 6, 2, 1])) }
        var leafExtensions = [
            try Certificate.Extension(BasicConstraints.notCertificateAuthority, critical: true),
            try Certificate.Extension(
                KeyUsage(digitalSignature: true, keyCertSign: variant.leafSignsCertificates), critical: true),
        ]
        if variant.leafAKID { leafExtensions.append(try akid(intermediateId)) }
        if variant.leafMarker { leafExtensions.append(marker([1, 2, 840, 113635, 100, 6, 11, 1])) }
        let rootCertificate = try certificate(rootName, rootName, rootKey.publicKey, by: rootKey, rootExtensions)
        let intermediate = try certificate(intermediateName, rootName, intermediateKey.publicKey, by: rootKey, intermediateExtensions)
        let leaf = try certificate(leafName, intermediateName, leafKey.publicKey, by: intermediateKey, expired: variant.leafExpired, leafExtensions)
        return ([leaf, intermediate, rootCertificate], leafKey)
    }

    /// A signed transaction of the configured app, signed a day ago, with `chain` in x5c.
    static func sign(_ variant: Variant, chain: [Certificate], key: P256.Signing.PrivateKey) throws -> String {
        let x5c = try chain.map { certificate in
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return Data(serializer.serializedBytes).base64EncodedString()
        }
        let header = try JSONSerialization.data(withJSONObject: ["alg": variant.alg, "x5c": x5c])
        let signed = Int64((Date().timeIntervalSince1970 - 86_400) * 1000)
        let payload = try JSONSerialization.data(withJSONObject: [
            "transactionId": "2000000001", "originalTransactionId": "2000000001", "bundleId": bundleId, "productId": "coins_60",
            "purchaseDate": signed, "signedDate": signed, "environment": "Production", "type": "Consumable", "quantity": 1,
            "inAppOwnershipType": "PURCHASED",
        ])
        let input = "\(Base64.encodeURL(header)).\(Base64.encodeURL(payload))"
        let signature = try key.signature(for: Data(input.utf8))
        return "\(input).\(Base64.encodeURL(signature.rawRepresentation))"
    }
}
