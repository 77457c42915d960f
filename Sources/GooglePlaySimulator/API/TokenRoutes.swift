import Foundation
import Hummingbird
import WebTokens

/// Google's OAuth token endpoint for service accounts (the JWT bearer grant) and the
/// certificates push tokens are signed with, as `oauth2.googleapis.com/token` and
/// `www.googleapis.com/oauth2/v1/certs` answer them.
struct TokenRoutes: Sendable {
    let simulator: GooglePlaySimulator
    static let scope = "https://www.googleapis.com/auth/androidpublisher"
    /// google-auth signs its assertion for this audience whatever its token URI is.
    static let googleTokenAudience = "https://oauth2.googleapis.com/token"

    func add(to router: Router<BasicRequestContext>) {
        router.post("/token") { request, _ in
            let body = String(buffer: try await request.body.collect(upTo: 1 << 16))
            return PlayAnswer.json(await grant(Self.form(body)))
        }
        router.get("/certs") { _, _ in
            PlayAnswer.json((200, [simulator.keys.pushKeyId: simulator.keys.pushCertificatePEM]))
        }
    }

    /// Checks the assertion as Google does: the grant type, an RS256 signature by the
    /// service account's key, its issuer, audience, expiry (an hour at most) and scope.
    private func grant(_ form: [String: String]) async -> (Int, [String: Any]) {
        func refused(_ description: String) -> (Int, [String: Any]) { (400, ["error": "invalid_grant", "error_description": description]) }
        guard form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer", let assertion = form["assertion"] else {
            return (400, ["error": "unsupported_grant_type", "error_description": "Invalid grant_type"])
        }
        struct Claims: Decodable {
            var iss: String?
            var aud: String?
            var scope: String?
            var iat: Int64?
            var exp: Int64?
        }
        guard let token = try? WebToken(compact: assertion), token.isSigned(by: simulator.keys.serviceAccountPublicKey) else {
            return refused("Invalid JWT Signature.")
        }
        guard let claims = try? token.claims(as: Claims.self), claims.iss == simulator.keys.serviceAccountEmail else {
            return refused("Invalid JWT: the issuer is not this service account")
        }
        let now = Int64(Date().timeIntervalSince1970)
        guard let iat = claims.iat, let exp = claims.exp, exp > now, exp - iat <= 3600 else {
            return refused("Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.")
        }
        guard claims.aud == Self.googleTokenAudience || claims.aud?.hasSuffix("/token") == true else { return refused("Invalid JWT: the audience") }
        guard claims.scope?.split(separator: " ").contains(Substring(Self.scope)) == true else {
            return (400, ["error": "invalid_scope", "error_description": "the androidpublisher scope is required"])
        }
        return (200, ["access_token": await simulator.tokens.issue(), "expires_in": 3599, "token_type": "Bearer"])
    }

    /// An `application/x-www-form-urlencoded` body.
    static func form(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }
}
