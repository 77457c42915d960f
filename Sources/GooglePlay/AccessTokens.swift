import Foundation
import StoreHTTP

/// The service account's access token, asked for with the JWT bearer grant and kept until
/// a minute before it ends. Calls waiting for one share one request.
actor AccessTokens {
    private let key: ServiceAccountKey
    private let http: StoreHTTP
    private var current: (token: String, until: Date)?
    private var inFlight: Task<Result<(String, Date), PlayCallFailure>, Never>?

    init(key: ServiceAccountKey, http: StoreHTTP) {
        self.key = key
        self.http = http
    }

    /// A valid bearer token, or why Google gave none.
    func bearer(now: Date = Date()) async -> Result<String, PlayCallFailure> {
        if let current, current.until > now { return .success(current.token) }
        let task = inFlight ?? Task { [key, http] in await Self.ask(key: key, http: http) }
        inFlight = task
        let result = await task.value
        inFlight = nil
        switch result {
        case .success(let (token, until)):
            current = (token, until)
            return .success(token)
        case .failure(let failure):
            return .failure(failure)
        }
    }

    /// Forgets the token (Google said 401 to it: revoked, or the key rotated).
    func invalidate() { current = nil }

    private static func ask(key: ServiceAccountKey, http: StoreHTTP) async -> Result<(String, Date), PlayCallFailure> {
        let assertion: String
        do { assertion = try key.assertion() } catch {
            return .failure(PlayCallFailure(httpStatus: nil, reason: "signing the OAuth assertion failed", latencyMs: 0))
        }
        let form = "grant_type=\(Self.escape("urn:ietf:params:oauth:grant-type:jwt-bearer"))&assertion=\(Self.escape(assertion))"
        let exchange = await http.send(
            .POST, key.tokenURI, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array(form.utf8), json: false)
        struct Grant: Decodable {
            var access_token: String?
            var expires_in: Double?
            var error: String?
            var error_description: String?
        }
        let grant = try? JSONDecoder().decode(Grant.self, from: Data(exchange.body))
        guard exchange.httpStatus == 200, let token = grant?.access_token else {
            let why = exchange.transportError ?? [grant?.error, grant?.error_description].compactMap { $0 }.joined(separator: ": ")
            return .failure(
                PlayCallFailure(
                    httpStatus: exchange.httpStatus.map { $0 == 200 ? 502 : ($0 == 400 ? 401 : $0) }, reason: "Google's token endpoint: \(why)",
                    latencyMs: exchange.latencyMs, transportError: exchange.transportError))
        }
        return .success((token, Date().addingTimeInterval(max(0, (grant?.expires_in ?? 3600) - 60))))
    }

    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }
}
