import AppStore
import ConfigFiles
import Foundation

/// One `[[apps]]` entry: a studio's next game in the same store. What it leaves
/// out it shares with the first app's `[apple]`: a team's In-App Purchase key and its
/// primary shared secret serve all of its apps.
///
/// ```toml
/// [[apps]]
/// bundle_id = "com.example.kitten"
/// shared_secret_file = "/etc/iapdesk/kitten-shared-secret"   # else [apple]'s
/// key_file = "/etc/iapdesk/AuthKey_DEF456.p8"                  # with key_id and issuer_id, else [apple]'s
/// key_id = "DEF456"
/// issuer_id = "57246542-96fe-1a63-e053-0824d011072a"
/// ```
public struct AppConfiguration: Sendable, Equatable {
    public var bundleId: String
    public var sharedSecret: Secret?
    public var privateKey: Secret?
    public var keyId: String?
    public var issuerId: String?
    /// Only for tests and staging: this app's Apple is an `iapdesk simulator` of its own.
    public var simulator: String?

    static let keys: Set<String> = ["bundle_id", "shared_secret_file", "key_file", "key_id", "issuer_id", "simulator"]
    static let refused: Set<String> = ["shared_secret", "key", "private_key", "password"]

    /// The entries of `[[apps]]`, each checked: a bundle id, known keys, no secret inline.
    static func read(_ reader: TOMLReader) throws -> [AppConfiguration] {
        try reader.records("apps").enumerated().map { index, fields in
            let place = "apps[\(index + 1)]"
            for key in fields.keys.sorted() {
                if refused.contains(key) {
                    throw reader.error(place, key, "secrets are read from files, never from the configuration file; use \(key)_file")
                }
                guard keys.contains(key) else { throw reader.error(place, key, "unknown setting (\(keys.sorted().joined(separator: ", ")))") }
            }
            guard let bundleId = fields["bundle_id"], !bundleId.isEmpty else { throw reader.error(place, "bundle_id", "required") }
            var app = AppConfiguration(bundleId: bundleId)
            if let path = fields["shared_secret_file"] {
                app.sharedSecret = try Configuration.secret(file: path, setting: "\(place).shared_secret_file", in: reader.file)
            }
            if let path = fields["key_file"] { app.privateKey = try Configuration.secret(file: path, setting: "\(place).key_file", in: reader.file) }
            app.keyId = fields["key_id"]
            app.issuerId = fields["issuer_id"]
            app.simulator = fields["simulator"]
            return app
        }
    }

    init(bundleId: String) { self.bundleId = bundleId }

    /// Its identity at Apple, given the first app's settings: its own secret and key where
    /// it has them (a key, its id and issuer together), else the first app's.
    func appleApp(sharing first: AppStoreSettings, source: String?) throws -> AppStoreSettings.AppleApp {
        var endpoints = simulator.map { VerifyReceiptEndpoints.simulator(Configuration.trimmed($0)) } ?? first.verifyReceipt
        endpoints.sharedSecret = sharedSecret ?? first.verifyReceipt.sharedSecret
        endpoints.first = first.verifyReceipt.first
        var credentials = first.serverAPI
        let own = [privateKey != nil, keyId != nil, issuerId != nil]
        if let privateKey, let keyId, let issuerId {
            credentials = try ServerAPICredentials(
                issuerId: issuerId, keyId: keyId, p8: privateKey, productionURL: first.serverAPI?.productionURL ?? ServerAPICredentials.appleProductionURL,
                sandboxURL: first.serverAPI?.sandboxURL ?? ServerAPICredentials.appleSandboxURL)
        } else if own.contains(true) {
            throw ConfigError(file: source, "[[apps]] \(bundleId): key_file, key_id and issuer_id go together (or none, to use [apple]'s)")
        }
        if let simulator, var simulated = credentials {
            simulated.productionURL = Configuration.trimmed(simulator)
            simulated.sandboxURL = Configuration.trimmed(simulator) + "/sandbox"
            credentials = simulated
        }
        return AppStoreSettings.AppleApp(bundleId: bundleId, verifyReceipt: endpoints, serverAPI: credentials)
    }
}
