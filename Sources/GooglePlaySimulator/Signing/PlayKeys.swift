import Crypto
import Foundation
import SwiftASN1
import WebTokens
import X509
import _CryptoExtras

/// The keys the simulated Google holds, made at start:
/// - the service account the developer's server signs in with (Google keeps its public half;
///   the private half goes into the JSON key file Play Console would download);
/// - the key Google signs Cloud Pub/Sub push tokens with, published at `/certs` as a
///   certificate under its key id, as `https://www.googleapis.com/oauth2/v1/certs` is.
public struct PlayKeys: Sendable {
    public let serviceAccountEmail: String
    public let serviceAccountKeyId: String
    let serviceAccountKey: _RSA.Signing.PrivateKey
    /// The push's signer: its key id and certificate.
    public let pushKeyId: String
    let pushKey: _RSA.Signing.PrivateKey
    public let pushCertificatePEM: String
    /// The account Pub/Sub pushes as (`email` in the push token), as a subscription names it.
    public let pushServiceAccountEmail: String

    public init(project: String = "iapdesk-sim") throws {
        serviceAccountEmail = "iapdesk-play@\(project).iam.gserviceaccount.com"
        serviceAccountKeyId = Self.keyId()
        serviceAccountKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        pushKeyId = Self.keyId()
        pushKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        pushServiceAccountEmail = "play-rtdn-push@\(project).iam.gserviceaccount.com"
        let name = try DistinguishedName { CommonName("\(project) push token signing") }
        let certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(pushKey.publicKey),
            notValidBefore: Date(timeIntervalSince1970: 946_684_800), notValidAfter: Date(timeIntervalSince1970: 4_102_444_800),
            issuer: name, subject: name, signatureAlgorithm: .sha256WithRSAEncryption, extensions: Certificate.Extensions(),
            issuerPrivateKey: .init(pushKey))
        pushCertificatePEM = try certificate.serializeAsPEM().pemString
    }

    /// A key id as Google's look: 40 hex digits.
    private static func keyId() -> String {
        SHA256.hash(data: Data(UUID().uuidString.utf8)).prefix(20).map { String(format: "%02x", $0) }.joined()
    }

    /// The service account's JSON key file, as Play Console hands it out, with the
    /// simulator's token endpoint: what google-auth and iapdesk read.
    public func serviceAccountFile(tokenURI: String, project: String = "iapdesk-sim") -> [String: String] {
        [
            "type": "service_account", "project_id": project, "private_key_id": serviceAccountKeyId,
            "private_key": serviceAccountKey.pkcs8PEMRepresentation, "client_email": serviceAccountEmail, "client_id": "100000000000000000001",
            "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": tokenURI,
        ]
    }

    /// A push token as Google signs them: RS256, `iss` accounts.google.com, the push
    /// subscription's audience and service account, valid for an hour.
    public func pushToken(audience: String, now: Date = Date()) throws -> String {
        struct Claims: Encodable {
            var aud: String
            var azp: String
            var email: String
            var email_verified: Bool
            var iat: Int64
            var exp: Int64
            var iss: String
            var sub: String
        }
        let issued = Int64(now.timeIntervalSince1970)
        return try WebToken.sign(
            Claims(
                aud: audience, azp: "113774264463038321964", email: pushServiceAccountEmail, email_verified: true, iat: issued, exp: issued + 3600,
                iss: "https://accounts.google.com", sub: "113774264463038321964"),
            with: pushKey, keyId: pushKeyId)
    }

    var serviceAccountPublicKey: _RSA.Signing.PublicKey { serviceAccountKey.publicKey }
}
