import Crypto
import Foundation
import Receipts

/// Signs JSON payloads as Apple's JWS: ES256, the simulator's chain in `x5c`.
public struct JWSMinter: Sendable {
    public let authority: CertificateAuthority

    public init(authority: CertificateAuthority) { self.authority = authority }

    public func sign<Payload: Encodable>(_ payload: Payload) throws -> String {
        let header = try JSONSerialization.data(withJSONObject: [
            "alg": "ES256", "x5c": try authority.chainDER().map { Data($0).base64EncodedString() },
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = try encoder.encode(payload)
        let signingInput = "\(Base64.encodeURL(header)).\(Base64.encodeURL(body))"
        let signature = try authority.leafKey.signature(for: Data(signingInput.utf8))
        return "\(signingInput).\(Base64.encodeURL(signature.rawRepresentation))"
    }
}
