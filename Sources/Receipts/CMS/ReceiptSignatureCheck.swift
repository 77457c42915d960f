import Foundation
import SwiftASN1
import X509

/// Checks the CMS signature of an app receipt and the chain of its signer.
///
/// The chain is checked at the receipt's creation date, so a 2020 receipt signed through
/// the SHA-1 WWDR G1 intermediate (expired 2023) still verifies for its own time, as TN3138
/// asks. Xcode receipts are trusted only against a configured StoreKit certificate.
public enum ReceiptSignatureCheck {
    /// The verdict on `signedData`'s signature and its signer's chain to `trust`.
    ///
    /// - Parameters:
    ///   - receipt: the decoded payload, whose creation date is the time the chain is
    ///     checked at.
    ///   - now: the time used when the receipt has no creation date.
    /// - Returns: valid with the chain's subjects, or why not; never throws, since a bad
    ///   signature is an answer support reads, not a failure.
    public static func verify(
        _ signedData: SignedData, receipt: AppReceipt, trust: TrustRoots, now: Date = Date()
    ) async -> SignatureVerdict {
        let time = receipt.receiptCreationDate ?? now
        guard let signer = signedData.signers.first else { return .unverified("the container has no signer") }
        guard let digest = DigestAlgorithms.name(signer.digestAlgorithm) else {
            return .unverified("unsupported digest algorithm \(signer.digestAlgorithm)")
        }

        var certificates: [Certificate] = []
        for (index, der) in signedData.certificates.enumerated() {
            do {
                certificates.append(try CertificateCache.shared.certificate(der: der))
            } catch {
                return .unverified("embedded certificate \(index + 1) does not parse: \(error)", digest: digest)
            }
        }
        guard let signerCertificate = certificates.first(where: { matches($0, signer) }) else {
            return .unverified("no embedded certificate matches the signer", chain: certificates, digest: digest)
        }
        guard let algorithm = DigestAlgorithms.signatureAlgorithm(signature: signer.signatureAlgorithm, digest: digest) else {
            return .unverified("unsupported signature algorithm \(signer.signatureAlgorithm)", digest: digest)
        }

        let signedBytes: [UInt8]
        if let attributes = signer.signedAttributes {
            guard let expected = signer.messageDigest, DigestAlgorithms.hash(signedData.content, digest: digest) == expected else {
                return .unverified(
                    "the content's digest does not match the signed messageDigest: the receipt was altered", chain: [signerCertificate], digest: digest)
            }
            signedBytes = attributes
        } else {
            signedBytes = signedData.content
        }
        guard signerCertificate.publicKey.isValidSignature(signer.signature, for: signedBytes, signatureAlgorithm: algorithm) else {
            return .unverified(
                "the signature does not match the content: the receipt was altered or signed by another key", chain: [signerCertificate], digest: digest,
                at: time)
        }

        let outcome: ChainCheck.Outcome
        if receipt.isXcode {
            outcome = ChainCheck.checkPinned(signer: signerCertificate, pinned: trust.xcode, at: time)
        } else {
            let others = certificates.filter { $0 != signerCertificate }
            outcome = await ChainCheck.check(leaf: signerCertificate, intermediates: others, anchors: trust.apple, at: time)
        }
        switch outcome {
        case .trusted(let chain):
            return SignatureVerdict(status: .verified, chain: chain, digest: digest, validationTime: time)
        case .untrusted(let reason):
            return .unverified(reason, chain: certificates, digest: digest, at: time)
        }
    }

    private static func matches(_ certificate: Certificate, _ signer: SignedData.SignerInfo) -> Bool {
        // Compare magnitudes: DER adds a 0x00 before a serial whose first bit is set.
        func magnitude(_ bytes: some Collection<UInt8>) -> [UInt8] { Array(bytes.drop { $0 == 0 }) }
        guard magnitude(certificate.serialNumber.bytes) == magnitude(signer.serialNumber) else { return false }
        // Compare the issuer Name as encoded: a DER re-serialisation of the certificate's issuer.
        var serializer = DER.Serializer()
        guard (try? serializer.serialize(certificate.issuer)) != nil else { return false }
        return serializer.serializedBytes == signer.issuer
    }
}
