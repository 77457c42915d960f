import AppStore
import ConfigFiles
import Foundation
import GooglePlay

/// `[google_play]`: the Android side of the store. Unset, `serve` answers for Apple only
/// and refuses Play submissions and pushes.
///
/// ```toml
/// [google_play]
/// package_names = ["com.example.game"]
/// service_account_key_file = "/etc/iapdesk/play-service-account.json"   # Play Console's JSON key
/// push_audience = "https://iap.example.com/google/notifications"       # the push subscription's audience
/// push_service_account_email = "rtdn-push@example.iam.gserviceaccount.com"
/// timeout_seconds = 15
/// # Google's URLs are the default; `simulator` points both at `iapdesk play-simulator`:
/// # simulator = "http://127.0.0.1:9091"
/// # api_url, certs_url
/// ```
public struct PlayConfiguration: Sendable, Equatable {
    public var packageNames: [String] = []
    /// The service account's JSON key file, kept as a secret: it holds a private key.
    public var serviceAccountKey: Secret?
    public var pushAudience: String?
    public var pushServiceAccountEmail: String?
    public var apiURL = PlaySettings.googleAPI
    public var certsURL = PushSettings.googleCerts
    public var timeoutSeconds: Int64 = 15

    public init() {}

    static let keys: Set<String> = [
        "package_names", "service_account_key_file", "push_audience", "push_service_account_email", "timeout_seconds", "simulator", "api_url",
        "certs_url",
    ]
    static let refused: Set<String> = ["service_account_key", "private_key", "key"]

    /// Whether the file or the environment said anything about Google Play.
    var isConfigured: Bool { !packageNames.isEmpty || serviceAccountKey != nil || pushAudience != nil }

    mutating func read(_ reader: TOMLReader) throws {
        try reader.onlyKeys(Self.keys, in: "google_play", refusing: Self.refused)
        if let names = try reader.strings("google_play", "package_names") { packageNames = names }
        if let path = try reader.string("google_play", "service_account_key_file") {
            serviceAccountKey = try Configuration.secret(file: path, setting: "google_play.service_account_key_file", in: reader.file)
        }
        if let audience = try reader.string("google_play", "push_audience") { pushAudience = audience }
        if let email = try reader.string("google_play", "push_service_account_email") { pushServiceAccountEmail = email }
        if let seconds = try reader.positive("google_play", "timeout_seconds") { timeoutSeconds = seconds }
        if let base = try reader.string("google_play", "simulator") { useSimulator(base) }
        if let url = try reader.string("google_play", "api_url") { apiURL = url }
        if let url = try reader.string("google_play", "certs_url") { certsURL = url }
    }

    /// The same settings as `IAPDESK_GOOGLE_PLAY_*` variables (package names comma-separated).
    mutating func apply(environment env: [String: String]) throws {
        if let names = env["IAPDESK_GOOGLE_PLAY_PACKAGE_NAMES"] {
            packageNames = names.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        if let path = env["IAPDESK_GOOGLE_PLAY_SERVICE_ACCOUNT_KEY_FILE"] {
            serviceAccountKey = try Configuration.secret(file: path, setting: "IAPDESK_GOOGLE_PLAY_SERVICE_ACCOUNT_KEY_FILE")
        }
        if let audience = env["IAPDESK_GOOGLE_PLAY_PUSH_AUDIENCE"] { pushAudience = audience }
        if let email = env["IAPDESK_GOOGLE_PLAY_PUSH_SERVICE_ACCOUNT_EMAIL"] { pushServiceAccountEmail = email }
        if let text = env["IAPDESK_GOOGLE_PLAY_TIMEOUT_SECONDS"] { timeoutSeconds = try Configuration.number(text, "IAPDESK_GOOGLE_PLAY_TIMEOUT_SECONDS") }
        if let base = env["IAPDESK_GOOGLE_PLAY_SIMULATOR"] { useSimulator(base) }
        if let url = env["IAPDESK_GOOGLE_PLAY_API_URL"] { apiURL = url }
        if let url = env["IAPDESK_GOOGLE_PLAY_CERTS_URL"] { certsURL = url }
    }

    /// Both of Google's URLs at an `iapdesk play-simulator` (the token URL is the key file's).
    mutating func useSimulator(_ base: String) {
        let base = Configuration.trimmed(base)
        apiURL = base
        certsURL = base + "/certs"
    }

    /// What the Play client needs, or nil when Google Play is not configured. Half a
    /// configuration is an error naming what is missing: a studio that set package names
    /// and forgot the key would otherwise find out from a queue of unverified purchases.
    public func settings(source: String?) throws -> PlaySettings? {
        guard isConfigured else { return nil }
        var missing: [String] = []
        if packageNames.isEmpty { missing.append("google_play.package_names") }
        if serviceAccountKey == nil { missing.append("google_play.service_account_key_file") }
        if pushAudience == nil { missing.append("google_play.push_audience") }
        if pushServiceAccountEmail == nil { missing.append("google_play.push_service_account_email") }
        guard missing.isEmpty, let serviceAccountKey, let pushAudience, let pushServiceAccountEmail else {
            throw ConfigError(file: source, "Google Play needs \(missing.joined(separator: ", ")) too")
        }
        for url in [apiURL, certsURL] {
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil else {
                throw ConfigError(file: source, key: "google_play", "\(url) is not an http(s) URL")
            }
        }
        let key: ServiceAccountKey
        do {
            key = try ServiceAccountKey(json: Data(serviceAccountKey.value.utf8))
        } catch {
            throw ConfigError(file: source, key: "google_play.service_account_key_file", "\(error) (\(serviceAccountKey.origin))")
        }
        return PlaySettings(
            packageNames: packageNames, serviceAccount: key, apiBase: Configuration.trimmed(apiURL),
            push: PushSettings(audience: pushAudience, serviceAccountEmail: pushServiceAccountEmail, certsURL: certsURL),
            requestTimeout: .seconds(timeoutSeconds))
    }

    /// For `iapdesk config`.
    var summary: String {
        guard isConfigured else { return "(not set: serve answers for Apple only)" }
        let key = serviceAccountKey.map { "key \($0.description)" } ?? "NO KEY FILE"
        return "\(packageNames.joined(separator: ", ")); \(key); API \(apiURL); push audience \(pushAudience ?? "NOT SET")"
    }
}
