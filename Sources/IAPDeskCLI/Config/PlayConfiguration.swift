import AppStore
import ConfigFiles
import Foundation
import GooglePlay

/// `[google_play]`: the Android side of the store (its settings are declared with the
/// others, in `Settings.swift`). Unset, `serve` answers for Apple only and refuses Play
/// submissions and pushes.
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

    /// Whether the file or the environment said anything about Google Play.
    var isConfigured: Bool { !packageNames.isEmpty || serviceAccountKey != nil || pushAudience != nil }

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
