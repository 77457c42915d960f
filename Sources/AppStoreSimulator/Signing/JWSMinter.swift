import Crypto
import Foundation

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
        let signingInput = "\(Self.base64URL(header)).\(Self.base64URL(body))"
        let signature = try authority.leafKey.signature(for: Data(signingInput.utf8))
        return "\(signingInput).\(Self.base64URL(signature.rawRepresentation))"
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
