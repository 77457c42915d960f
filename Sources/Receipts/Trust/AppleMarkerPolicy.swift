import SwiftASN1
import X509

/// Apple's own marker extensions (the App Store Server Library's `AppStoreOIDPolicy`):
/// a chain must be leaf ← intermediate ← root, the leaf must carry the receipt-signing
/// marker and the intermediate the WWDR marker. Without this, any certificate some CA
/// under the same root issued could sign "Apple" data.
struct AppleMarkerPolicy: VerifierPolicy {
    static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
    static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]

    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        guard chain.count == 3 else {
            return .failsToMeetPolicy(reason: "chain has \(chain.count) certificates; Apple's is leaf, intermediate, root")
        }
        guard chain[0].extensions[oid: Self.leafMarker] != nil else {
            return .failsToMeetPolicy(reason: "signing certificate lacks Apple's marker \(Self.leafMarker)")
        }
        guard chain[1].extensions[oid: Self.intermediateMarker] != nil else {
            return .failsToMeetPolicy(reason: "intermediate certificate lacks Apple's marker \(Self.intermediateMarker)")
        }
        return .meetsPolicy
    }
}
