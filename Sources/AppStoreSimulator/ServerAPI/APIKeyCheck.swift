import Crypto
import Foundation
import Receipts

/// The In-App Purchase key the simulator accepts, as App Store Connect would issue it: an
/// issuer id, a key id and a P-256 key. The simulator generates one at start and hands the
/// private half (a `.p8` PEM) to whoever configures iapdesk against it.
public struct SimulatorAPIKey: Sendable {
    public let issuerId: String
    public let keyId: String
    public let privateKey: P256.Signing.PrivateKey

    public init(
        issuerId: String = "57246542-96fe-1a63-e053-0824d011072a", keyId: String = "SIMKEY0001",
        privateKey: P256.Signing.PrivateKey = P256.Signing.PrivateKey()
    ) {
        self.issuerId = issuerId
        self.keyId = keyId
        self.privateKey = privateKey
    }

    /// The `.p8` file's content (PKCS#8 PEM), as Apple's download.
    public var p8PEM: String { privateKey.pemRepresentation }
}

/// Checks a request's `Authorization: Bearer <JWT>` the way Apple does: ES256 signed by the
/// key named in `kid`, `iss` and `bid` as issued, `aud` "appstoreconnect-v1", not expired
/// and expiring within the hour. Apple answers 401 with no body otherwise. `iat` may be
/// absent: Apple's own App Store Server Library sends none, and Apple accepts its tokens;
/// when present it may not be in the future nor an hour before `exp`.
struct APIKeyCheck: Sendable {
    let key: SimulatorAPIKey
    let bundleId: String

    func accepts(authorization: String?, now: Date = Date()) -> Bool {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return false }
        let parts = authorization.dropFirst("Bearer ".count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerBytes = Base64.decodeURL(parts[0]), let payloadBytes = Base64.decodeURL(parts[1]),
            let signatureBytes = Base64.decodeURL(parts[2]),
            let header = try? JSONDecoder().decode(Header.self, from: Data(headerBytes)),
            let claims = try? JSONDecoder().decode(Claims.self, from: Data(payloadBytes)),
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes)
        else { return false }
        let signed = Data("\(parts[0]).\(parts[1])".utf8)
        let nowSeconds = now.timeIntervalSince1970
        return header.alg == "ES256" && header.kid == key.keyId
            && key.privateKey.publicKey.isValidSignature(signature, for: signed)
            && claims.iss == key.issuerId && claims.aud == "appstoreconnect-v1" && claims.bid == bundleId
            && claims.exp > nowSeconds && claims.exp - nowSeconds <= 3600 + 60
            && (claims.iat.map { $0 <= nowSeconds + 60 && claims.exp - $0 <= 3600 } ?? true)
    }

    private struct Header: Decodable { var alg: String; var kid: String }
    private struct Claims: Decodable { var iss: String; var iat: Double?; var exp: Double; var aud: String; var bid: String }
}
