import SwiftASN1
import X509

/// The certificate rules OpenSSL adds in strict mode (`X509_V_FLAG_X509_STRICT`), which
/// Apple's App Store Server Library turns on: without them iapdesk would trust chains
/// Apple's own verifier refuses. Below the trust anchor, every certificate names its
/// issuer's key (Authority Key Identifier); a CA names its key usage and its own key
/// (Subject Key Identifier); a non-CA may not sign certificates; names are not empty; key
/// identifiers are not critical. Each rule is one Apple's verifier was seen to enforce
/// (`StrictChainOracleTests`); what it lets through (a root without a key identifier, a
/// CA's basic constraints not marked critical) passes here too.
struct StrictExtensionsPolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        for (index, certificate) in chain.enumerated() {
            if let problem = Self.problem(certificate, isAnchor: index == chain.count - 1) {
                let role = index == 0 ? "signing certificate" : index == chain.count - 1 ? "root certificate" : "intermediate certificate"
                return .failsToMeetPolicy(reason: "\(role) \(CertificateSummary.commonName(certificate.subject)): \(problem)")
            }
        }
        return .meetsPolicy
    }

    static func problem(_ certificate: Certificate, isAnchor: Bool) -> String? {
        let extensions = certificate.extensions
        func critical(_ oid: ASN1ObjectIdentifier) -> Bool? { extensions[oid: oid]?.critical }
        guard certificate.version == .v3 || extensions.isEmpty else { return "extensions need an X.509 version 3 certificate" }
        guard !certificate.issuer.isEmpty else { return "empty issuer name" }
        let basic = try? extensions.basicConstraints
        let isCA = if case .isCertificateAuthority = basic { true } else { false }
        let usage = try? extensions.keyUsage
        if isCA {
            if usage == nil { return "a CA certificate must name its key usage" }
            if !isAnchor, critical(.X509ExtensionID.subjectKeyIdentifier) == nil { return "a CA certificate must name its key (Subject Key Identifier)" }
        } else if usage?.keyCertSign == true {
            return "only a CA may sign certificates (key usage keyCertSign)"
        }
        if certificate.subject.isEmpty, isCA || extensions[oid: .X509ExtensionID.subjectAlternativeName] == nil { return "empty subject name" }
        if critical(.X509ExtensionID.authorityKeyIdentifier) == true { return "the Authority Key Identifier must not be critical" }
        if critical(.X509ExtensionID.subjectKeyIdentifier) == true { return "the Subject Key Identifier must not be critical" }
        if !isAnchor, critical(.X509ExtensionID.authorityKeyIdentifier) == nil { return "Missing Authority Key Identifier" }
        return nil
    }
}
