import Crypto
import Foundation
import Receipts

/// The bearer token for one Server API request: an ES256 JWT over the In-App Purchase key,
/// fresh per request as Apple asks, living five minutes.
enum ServerAPIToken {
    static func make(_ credentials: ServerAPICredentials, bundleId: String, now: Date = Date()) throws -> String {
        let header = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "kid": credentials.keyId, "typ": "JWT"], options: [.sortedKeys])
        let issuedAt = Int(now.timeIntervalSince1970)
        let claims = try JSONSerialization.data(
            withJSONObject: [
                "iss": credentials.issuerId, "iat": issuedAt, "exp": issuedAt + 300, "aud": "appstoreconnect-v1", "bid": bundleId,
            ], options: [.sortedKeys])
        let signingInput = "\(Base64.encodeURL(header)).\(Base64.encodeURL(claims))"
        let signature = try credentials.key.signature(for: Data(signingInput.utf8))
        return "\(signingInput).\(Base64.encodeURL(signature.rawRepresentation))"
    }
}
