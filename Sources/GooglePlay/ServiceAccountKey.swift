import Foundation
import WebTokens
import _CryptoExtras

/// A Google service account's JSON key file: who iapdesk calls the Play Developer API as.
/// The private key never leaves this type: it signs the OAuth assertion and is not printed.
public struct ServiceAccountKey: Sendable, CustomStringConvertible {
    public let clientEmail: String
    public let keyId: String?
    public let tokenURI: String
    let privateKey: _RSA.Signing.PrivateKey

    /// Reads a key file's JSON; the error names what is wrong, never the key.
    public init(json: Data) throws(PlayConfigurationError) {
        struct File: Decodable {
            var type: String?
            var client_email: String?
            var private_key: String?
            var private_key_id: String?
            var token_uri: String?
        }
        guard let file = try? JSONDecoder().decode(File.self, from: json) else { throw .keyFile("not a JSON object") }
        guard file.type == nil || file.type == "service_account" else { throw .keyFile("type is \(file.type ?? ""), not service_account") }
        guard let email = file.client_email, !email.isEmpty else { throw .keyFile("client_email is missing") }
        guard let pem = file.private_key, let key = try? _RSA.Signing.PrivateKey(pemRepresentation: pem) else {
            throw .keyFile("private_key is missing or not an RSA key in PEM")
        }
        clientEmail = email
        keyId = file.private_key_id
        tokenURI = file.token_uri ?? "https://oauth2.googleapis.com/token"
        privateKey = key
    }

    public init(contentsOf path: String) throws(PlayConfigurationError) {
        guard let data = FileManager.default.contents(atPath: path) else { throw .keyFile("cannot read \(path)") }
        try self.init(json: data)
    }

    /// The OAuth 2.0 JWT bearer assertion for the androidpublisher scope, valid for an hour.
    func assertion(now: Date = Date()) throws -> String {
        struct Claims: Encodable {
            var iss: String
            var scope: String
            var aud: String
            var iat: Int64
            var exp: Int64
        }
        let issued = Int64(now.timeIntervalSince1970)
        return try WebToken.sign(
            Claims(iss: clientEmail, scope: Self.scope, aud: tokenURI, iat: issued, exp: issued + 3600), with: privateKey, keyId: keyId)
    }

    static let scope = "https://www.googleapis.com/auth/androidpublisher"

    public var description: String { "service account \(clientEmail)" }
}

/// A `[google_play]` setting iapdesk cannot work with.
public enum PlayConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    case keyFile(String)

    public var description: String {
        switch self {
        case .keyFile(let why): "the Google service account key file: \(why)"
        }
    }
}
