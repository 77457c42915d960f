import Foundation
// A fixed validation time is the point: historical receipts are checked at their own date.
@_spi(FixedExpiryValidationTime) import X509

/// Builds and checks a chain from a signing certificate to the configured anchors at a
/// given instant (RFC 5280 plus Apple's marker extensions).
enum ChainCheck {
    enum Outcome {
        case trusted([CertificateSummary])
        case untrusted(String)
    }

    static func check(leaf: Certificate, intermediates: [Certificate], anchors: [Certificate], at time: Date) async -> Outcome {
        guard !anchors.isEmpty else {
            return .untrusted("no trust roots are configured (--trust-roots DIR with Apple's root certificates)")
        }
        let key = VerifiedChains.Key(leaf: leaf, intermediates: intermediates, anchors: anchors)
        if let chain = VerifiedChains.shared.trusted(key, at: time) { return .trusted(chain) }
        var verifier = Verifier(rootCertificates: CertificateStore(anchors)) {
            RFC5280Policy(fixedExpiryValidationTime: time)
            StrictExtensionsPolicy()
            AppleMarkerPolicy()
        }
        switch await verifier.validate(leaf: leaf, intermediates: CertificateStore(intermediates)) {
        case .validCertificate(let chain):
            VerifiedChains.shared.remember(key, chain: Array(chain))
            return .trusted(chain.map(CertificateSummary.init))
        case .couldNotValidate(let failures):
            guard let first = failures.first else {
                return .untrusted("no chain from \(CertificateSummary.commonName(leaf.subject)) to a configured trust root")
            }
            return .untrusted("chain rejected: \(first.policyFailureReason)")
        }
    }

    /// A pinned self-signed certificate (Xcode's StoreKit testing): trusted only when the
    /// signer is byte-identical to one the operator configured, within its validity.
    static func checkPinned(signer: Certificate, pinned: [Certificate], at time: Date) -> Outcome {
        guard pinned.contains(signer) else {
            return .untrusted(
                "signed by a local StoreKit test certificate (\(CertificateSummary.commonName(signer.subject))) that is not configured as trusted")
        }
        guard signer.notValidBefore <= time, time <= signer.notValidAfter else {
            return .untrusted("the StoreKit test certificate was not valid at \(RFC3339.format(time))")
        }
        return .trusted([CertificateSummary(signer)])
    }
}
