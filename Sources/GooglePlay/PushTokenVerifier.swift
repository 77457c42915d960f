import Foundation
import StoreHTTP
import WebTokens
import X509
import _CryptoExtras

/// Checks the OIDC token Cloud Pub/Sub sends with each push, as Google's samples do: an
/// RS256 signature by one of Google's published keys (fetched from `certsURL`, kept, and
/// fetched again for a key id not seen, at most once a minute), issuer
/// `accounts.google.com`, our audience, the push subscription's service account with a
/// verified email, and a time window. Anything else is a forgery.
public actor PushTokenVerifier {
    let settings: PushSettings
    let http: StoreHTTP
    private var keys: [String: _RSA.Signing.PublicKey] = [:]
    private var lastFetch: ContinuousClock.Instant?
    private var fetching: Task<[String: _RSA.Signing.PublicKey], Never>?
    /// Clock skew allowed on `iat` and `exp`.
    static let skew: TimeInterval = 300

    /// Fetches Google's keys over `client`'s connections (closed with it).
    public init(client: PlayClient) {
        settings = client.settings.push
        http = client.http
    }

    /// Nil when the `Authorization` header carries a push token Google signed for us, else
    /// why it does not (never the token itself).
    public func refusal(authorization: String?, now: Date = Date()) async -> String? {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return "no bearer token" }
        let token: WebToken
        do { token = try WebToken(compact: String(authorization.dropFirst("Bearer ".count))) } catch { return "\(error)" }
        guard token.header.alg == "RS256" else { return "signed with \(token.header.alg), not RS256" }
        guard let kid = token.header.kid else { return "its header names no key" }
        guard let key = await key(kid) else { return "signed with a key Google does not publish (\(kid.prefix(12)))" }
        guard token.isSigned(by: key) else { return "its signature does not verify" }
        struct Claims: Decodable {
            var iss: String?
            var aud: String?
            var email: String?
            var email_verified: Bool?
            var iat: Double?
            var exp: Double?
        }
        guard let claims = try? token.claims(as: Claims.self) else { return "its claims are unreadable" }
        guard claims.iss == "https://accounts.google.com" || claims.iss == "accounts.google.com" else { return "issued by \(claims.iss ?? "nobody")" }
        guard claims.aud == settings.audience else { return "meant for another audience" }
        guard claims.email == settings.serviceAccountEmail, claims.email_verified == true else { return "sent by another service account" }
        let time = now.timeIntervalSince1970
        guard let exp = claims.exp, exp + Self.skew > time else { return "expired" }
        guard let iat = claims.iat, iat - Self.skew < time else { return "issued in the future" }
        return nil
    }

    private func key(_ kid: String) async -> _RSA.Signing.PublicKey? {
        if let key = keys[kid] { return key }
        let fetch: Task<[String: _RSA.Signing.PublicKey], Never>
        if let inFlight = fetching {
            // A burst of pushes at start waits for the one fetch, instead of being refused.
            fetch = inFlight
        } else {
            if let last = lastFetch, ContinuousClock.now - last < .seconds(60) { return nil }
            lastFetch = .now
            fetch = Task { [http, settings] in await Self.fetchKeys(http, from: settings.certsURL) }
            fetching = fetch
        }
        let fetched = await fetch.value
        if fetching == fetch { fetching = nil }
        // Google rotates its keys: the published set replaces the one kept.
        if !fetched.isEmpty { keys = fetched }
        return keys[kid]
    }

    private static func fetchKeys(_ http: StoreHTTP, from url: String) async -> [String: _RSA.Signing.PublicKey] {
        let exchange = await http.send(.GET, url)
        guard exchange.httpStatus == 200, let pems = try? JSONDecoder().decode([String: String].self, from: Data(exchange.body)) else { return [:] }
        var fetched: [String: _RSA.Signing.PublicKey] = [:]
        for (id, pem) in pems {
            if let certificate = try? Certificate(pemEncoded: pem), let key = _RSA.Signing.PublicKey(certificate.publicKey) { fetched[id] = key }
        }
        return fetched
    }
}
