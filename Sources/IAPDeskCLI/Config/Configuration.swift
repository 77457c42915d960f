import AppStore
import ConfigFiles
import Foundation
import OrderStore
import Presentation
import Receipts
import Server

/// iapdesk's configuration: `iapdesk.toml`, overridden by environment variables, which
/// flags override in turn. Secrets come only from files or environment variables: a
/// secret written into the TOML file is refused.
///
/// ```toml
/// [store]
/// db = "./iapdesk.sqlite"          # or postgres://user@host/db
/// bundle_id = "com.example.game"
/// environment = "production"       # or "sandbox"
/// stuck_threshold_seconds = 300
/// deadline_seconds = 10            # longest wait for a connection, a statement or a connect
///
/// [apple]
/// shared_secret_file = "/etc/iapdesk/shared-secret"
/// key_file = "/etc/iapdesk/AuthKey_ABC123.p8"
/// key_id = "ABC123"
/// issuer_id = "57246542-96fe-1a63-e053-0824d011072a"
/// timeout_seconds = 30
/// # Apple's URLs are the default; `simulator` points all of them at `iapdesk simulator`:
/// # simulator = "http://127.0.0.1:9090"
/// # verify_receipt_url, verify_receipt_sandbox_url, server_api_url, server_api_sandbox_url
///
/// [receipts]
/// trust_roots = "/etc/iapdesk/roots"   # Apple's root certificates (self-signed only)
/// xcode_root = "/etc/iapdesk/StoreKitTestCertificate.cer"   # only for StoreKit testing
///
/// [[apps]]                             # more games in the same store (`AppConfiguration`)
/// bundle_id = "com.example.kitten"
///
/// [google_play]                      # the store's Android apps (`PlayConfiguration`)
/// package_names = ["com.example.game"]
///
/// [console]
/// theme = "default"
///
/// [game]                                # where `serve` pushes events; unset: games pull
/// webhook_url = "https://game.internal/iapdesk/events"
/// webhook_secrets_file = "/etc/iapdesk/game-webhook-secrets"   # one secret per line; each signs
/// webhook_retry_hours = 72
///
/// [audit]
/// key_file = "/etc/iapdesk/audit.key"          # signs the audit log (`iapdesk audit new-key`)
/// witness_file = "/var/lib/iapdesk/audit.witness"   # where `audit verify` last saw the log end
/// ```
public struct Configuration: Sendable, Equatable {
    public var db: String = StoreLocation.defaultSQLitePath
    public var bundleId: String = "com.example.game"
    /// Set by the file or IAPDESK_BUNDLE_ID (else the store's own app is used).
    public var bundleIdConfigured = false
    public var isProduction = true
    public var stuckThresholdSeconds: Int64 = 300
    /// `StoreSettings.databaseDeadline`: a request that cannot reach the store answers 503
    /// within this instead of waiting.
    public var databaseDeadlineSeconds: Int64 = 10
    public var sharedSecret: Secret?
    public var privateKey: Secret?
    public var keyId: String?
    public var issuerId: String?
    public var timeoutSeconds: Int = 30
    public var verifyReceipt = VerifyReceiptEndpoints.apple
    public var serverAPIURL = ServerAPICredentials.appleProductionURL
    public var serverAPISandboxURL = ServerAPICredentials.appleSandboxURL
    public var theme: String = "default"
    /// `[serve] client_tokens_file` / IAPDESK_CLIENT_TOKENS_FILE: the game servers' tokens, one `name token` a line.
    public var clientTokensFile: String?
    /// `[console.aliases]`: `:NAME` opens the order list with the filter, or runs the `:command`.
    public var consoleAliases: [String: String] = [:]
    /// A directory of trusted root certificates for receipts and JWS.
    public var trustRoots: String?
    /// The StoreKit test certificate, trusted for Xcode receipts only when set.
    public var xcodeRoot: String?
    /// The game's webhook (`[game]`); nil: the game pulls `/v1/events`.
    public var gameWebhookURL: String?
    public var gameWebhookSecrets: [Secret] = []
    public var gameWebhookRetryHours: Int64 = 72
    /// How the worker answers Apple's refund requests on its own (`[refunds]`); nil: support does.
    public var refundPolicy: RefundPolicy?
    /// Signs the audit log (`[audit] key_file`); kept outside the store, like every secret.
    public var auditKey: AuditKey?
    public var auditKeyOrigin: String?
    /// Where `audit verify` keeps the last point of the log it saw intact.
    public var auditWitnessFile: String?
    /// `[[apps]]`: the store's other apps, with what they do not share with the first.
    public var otherApps: [AppConfiguration] = []
    /// `[google_play]`: the store's Android apps; unset, Apple only.
    public var googlePlay = PlayConfiguration()
    /// The file that was read, if any.
    public var source: String?

    public init() {}

    public var storeLocation: StoreLocation { StoreLocation(db) }

    public var storeSettings: StoreSettings {
        var settings = StoreSettings(
            bundleId: bundleId, isProduction: isProduction, stuckThreshold: .seconds(stuckThresholdSeconds), auditKey: auditKey,
            databaseDeadline: .seconds(databaseDeadlineSeconds))
        settings.bundleIdConfigured = bundleIdConfigured
        settings.apps = [bundleId] + otherApps.map(\.bundleId)
        return settings
    }

    /// Loads the configuration: explicit path, else `IAPDESK_CONFIG`, else
    /// `$XDG_CONFIG_HOME/iapdesk/iapdesk.toml` (or `~/.config/...`), else `./iapdesk.toml`;
    /// a missing default file is fine, a missing explicit one is an error. Then applies
    /// the environment.
    public static func load(path explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Configuration {
        var config = Configuration()
        if let path = explicit ?? environment["IAPDESK_CONFIG"] {
            guard FileManager.default.fileExists(atPath: path) else { throw ConfigError(file: path, "no such configuration file") }
            try config.read(file: path)
        } else {
            let base = environment["XDG_CONFIG_HOME"] ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.config")
            for candidate in ["\(base)/iapdesk/iapdesk.toml", "./iapdesk.toml"] where FileManager.default.fileExists(atPath: candidate) {
                try config.read(file: candidate)
                break
            }
        }
        try config.apply(environment: environment)
        return config
    }

    mutating func read(file path: String) throws {
        try read(TOMLReader(contentsOf: path))
    }

    mutating func read(toml text: String, file: String) throws {
        try read(TOMLReader(parsing: text, file: file))
    }

    private mutating func read(_ reader: TOMLReader) throws {
        let file = reader.file
        try reader.onlyKeys([], tables: ["store", "apple", "receipts", "console", "game", "audit", "refunds", "serve", "apps", "google_play"], in: nil)
        try reader.onlyKeys(["client_tokens_file"], in: "serve", refusing: ["client_tokens", "tokens", "token"])
        try reader.onlyKeys(Set(ProductType.allCases.map(\.rawValue) + ["answer_before_deadline_hours", "prefer"]), in: "refunds")
        try reader.onlyKeys(["key_file", "witness_file"], in: "audit", refusing: ["key", "secret"])
        try reader.onlyKeys(
            ["webhook_url", "webhook_secrets_file", "webhook_retry_hours"], in: "game",
            refusing: ["webhook_secret", "webhook_secrets", "secret", "secrets"])
        try reader.onlyKeys(["db", "bundle_id", "environment", "stuck_threshold_seconds", "deadline_seconds"], in: "store")
        try reader.onlyKeys(
            [
                "shared_secret_file", "key_file", "key_id", "issuer_id", "timeout_seconds", "simulator", "verify_receipt_url",
                "verify_receipt_sandbox_url", "server_api_url", "server_api_sandbox_url",
            ], in: "apple",
            refusing: ["shared_secret", "key", "private_key", "password"])
        try reader.onlyKeys(["trust_roots", "xcode_root"], in: "receipts")
        try reader.onlyKeys(["theme"], tables: ["aliases"], in: "console")
        if let db = try reader.string("store", "db") { self.db = db }
        if let bundle = try reader.string("store", "bundle_id") { (bundleId, bundleIdConfigured) = (bundle, true) }
        if let env = try reader.string("store", "environment") { isProduction = try Self.environment(env, file: file, key: "store.environment") }
        if let seconds = try reader.positive("store", "stuck_threshold_seconds") { stuckThresholdSeconds = seconds }
        if let seconds = try reader.positive("store", "deadline_seconds") { databaseDeadlineSeconds = seconds }
        if let path = try reader.string("apple", "shared_secret_file") {
            sharedSecret = try Self.secret(file: path, setting: "apple.shared_secret_file", in: file)
        }
        if let path = try reader.string("apple", "key_file") { privateKey = try Self.secret(file: path, setting: "apple.key_file", in: file) }
        if let id = try reader.string("apple", "key_id") { keyId = id }
        if let id = try reader.string("apple", "issuer_id") { issuerId = id }
        if let seconds = try reader.positive("apple", "timeout_seconds") { timeoutSeconds = Int(seconds) }
        if let base = try reader.string("apple", "simulator") { useSimulator(base) }
        if let url = try reader.string("apple", "verify_receipt_url") { verifyReceipt.productionURL = url }
        if let url = try reader.string("apple", "verify_receipt_sandbox_url") { verifyReceipt.sandboxURL = url }
        if let url = try reader.string("apple", "server_api_url") { serverAPIURL = url }
        if let url = try reader.string("apple", "server_api_sandbox_url") { serverAPISandboxURL = url }
        if let theme = try reader.string("console", "theme") { self.theme = theme }
        if let path = try reader.string("serve", "client_tokens_file") { clientTokensFile = path }
        for (name, value) in try reader.strings("console", table: "aliases") ?? [:] {
            guard !name.isEmpty, name.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-" }) else {
                throw reader.error("console.aliases", name, "an alias is one word (letters, digits, _ and -)")
            }
            consoleAliases[name] = value
        }
        if let dir = try reader.string("receipts", "trust_roots") { trustRoots = dir }
        if let path = try reader.string("receipts", "xcode_root") { xcodeRoot = path }
        if let url = try reader.string("game", "webhook_url") { gameWebhookURL = url }
        if let path = try reader.string("game", "webhook_secrets_file") {
            gameWebhookSecrets = try Self.secrets(file: path, setting: "game.webhook_secrets_file", in: file)
        }
        if let hours = try reader.positive("game", "webhook_retry_hours") { gameWebhookRetryHours = hours }
        if let path = try reader.string("audit", "key_file") { try loadAuditKey(file: path, setting: "audit.key_file", in: file) }
        if let path = try reader.string("audit", "witness_file") { auditWitnessFile = path }
        try readRefundPolicy(reader)
        try googlePlay.read(reader)
        otherApps = try AppConfiguration.read(reader)
        if !otherApps.isEmpty, !bundleIdConfigured {
            throw ConfigError(file: file, "[[apps]] needs the first app's [store] bundle_id too")
        }
        let ids = [bundleId] + otherApps.map(\.bundleId)
        if let twice = ids.first(where: { id in ids.filter { $0 == id }.count > 1 }) {
            throw ConfigError(file: file, "\(twice) is named twice ([store] bundle_id and [[apps]])")
        }
        source = file
    }

    mutating func apply(environment env: [String: String]) throws {
        if let db = env["IAPDESK_DB"] { self.db = db }
        if let bundle = env["IAPDESK_BUNDLE_ID"] { (bundleId, bundleIdConfigured) = (bundle, true) }
        if let value = env["IAPDESK_ENVIRONMENT"] { isProduction = try Self.environment(value, file: nil, key: "IAPDESK_ENVIRONMENT") }
        if let theme = env["IAPDESK_THEME"] { self.theme = theme }
        if let path = env["IAPDESK_CLIENT_TOKENS_FILE"] { clientTokensFile = path }
        if let dir = env["IAPDESK_TRUST_ROOTS"] { trustRoots = dir }
        if let path = env["IAPDESK_XCODE_ROOT"] { xcodeRoot = path }
        if let secret = env["IAPDESK_SHARED_SECRET"] { sharedSecret = Secret(value: secret, origin: "env IAPDESK_SHARED_SECRET") }
        if let path = env["IAPDESK_SHARED_SECRET_FILE"] { sharedSecret = try Self.secret(file: path, setting: "IAPDESK_SHARED_SECRET_FILE") }
        if let path = env["IAPDESK_KEY_FILE"] { privateKey = try Self.secret(file: path, setting: "IAPDESK_KEY_FILE") }
        if let id = env["IAPDESK_KEY_ID"] { keyId = id }
        if let id = env["IAPDESK_ISSUER_ID"] { issuerId = id }
        if let base = env["IAPDESK_APPLE_SIMULATOR"] { useSimulator(base) }
        if let url = env["IAPDESK_GAME_WEBHOOK_URL"] { gameWebhookURL = url }
        if let path = env["IAPDESK_GAME_WEBHOOK_SECRETS_FILE"] {
            gameWebhookSecrets = try Self.secrets(file: path, setting: "IAPDESK_GAME_WEBHOOK_SECRETS_FILE")
        }
        if let path = env["IAPDESK_AUDIT_KEY_FILE"] { try loadAuditKey(file: path, setting: "IAPDESK_AUDIT_KEY_FILE") }
        if let path = env["IAPDESK_AUDIT_WITNESS_FILE"] { auditWitnessFile = path }
        // Every other key of the file has its variable too: a container sets them all this way.
        if let text = env["IAPDESK_STUCK_THRESHOLD_SECONDS"] { stuckThresholdSeconds = try Self.number(text, "IAPDESK_STUCK_THRESHOLD_SECONDS") }
        if let text = env["IAPDESK_DEADLINE_SECONDS"] { databaseDeadlineSeconds = try Self.number(text, "IAPDESK_DEADLINE_SECONDS") }
        if let text = env["IAPDESK_APPLE_TIMEOUT_SECONDS"] { timeoutSeconds = Int(try Self.number(text, "IAPDESK_APPLE_TIMEOUT_SECONDS")) }
        if let url = env["IAPDESK_VERIFY_RECEIPT_URL"] { verifyReceipt.productionURL = url }
        if let url = env["IAPDESK_VERIFY_RECEIPT_SANDBOX_URL"] { verifyReceipt.sandboxURL = url }
        if let url = env["IAPDESK_SERVER_API_URL"] { serverAPIURL = url }
        if let url = env["IAPDESK_SERVER_API_SANDBOX_URL"] { serverAPISandboxURL = url }
        if let text = env["IAPDESK_GAME_WEBHOOK_RETRY_HOURS"] { gameWebhookRetryHours = try Self.number(text, "IAPDESK_GAME_WEBHOOK_RETRY_HOURS") }
        try readRefundPolicy(environment: env)
        try googlePlay.apply(environment: env)
    }

    /// A whole number of at least 1 from a variable, or an error naming it.
    static func number(_ text: String, _ variable: String) throws -> Int64 {
        guard let number = Int64(text), number >= 1 else { throw ConfigError(key: variable, "a whole number of at least 1, not \(text)") }
        return number
    }

    /// `IAPDESK_REFUNDS_<PRODUCT TYPE>`, `IAPDESK_REFUNDS_ANSWER_BEFORE_DEADLINE_HOURS` and
    /// `IAPDESK_REFUNDS_PREFER`: `[refunds]` from the environment, checked by the same code.
    private mutating func readRefundPolicy(environment env: [String: String]) throws {
        var lines: [String] = []
        for key in ProductType.allCases.map(\.rawValue) + ["prefer"] {
            if let word = env["IAPDESK_REFUNDS_\(key.uppercased())"] { lines.append("\(key) = \(try Self.quoted(word))") }
        }
        if let text = env["IAPDESK_REFUNDS_ANSWER_BEFORE_DEADLINE_HOURS"] {
            lines.append("answer_before_deadline_hours = \(try Self.number(text, "IAPDESK_REFUNDS_ANSWER_BEFORE_DEADLINE_HOURS"))")
        }
        guard !lines.isEmpty else { return }
        try readRefundPolicy(try TOMLReader(parsing: (["[refunds]"] + lines).joined(separator: "\n"), file: "environment"))
    }

    /// A TOML basic string (JSON's escapes, which TOML shares, without escaping `/`).
    private static func quoted(_ text: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return String(decoding: try encoder.encode(text), as: UTF8.self)
    }

    private mutating func loadAuditKey(file path: String, setting: String, in configFile: String? = nil) throws {
        let material = try Self.secretFile(path, setting: setting, in: configFile)
        do {
            auditKey = try AuditKey(material: material)
        } catch {
            throw ConfigError(file: configFile, key: setting, "\(error)")
        }
        auditKeyOrigin = "file \(path)"
    }

    /// The game's webhook as `serve` pushes to it; a URL without a secret is an error
    /// (an unsigned webhook is one anybody can forge to the game).
    public func gameWebhook() throws -> GameWebhook? {
        guard let gameWebhookURL else { return nil }
        guard let url = URL(string: gameWebhookURL), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ConfigError(file: source, key: "game.webhook_url", "expected an http(s) URL")
        }
        guard !gameWebhookSecrets.isEmpty else {
            throw ConfigError(file: source, "game.webhook_url needs game.webhook_secrets_file (or IAPDESK_GAME_WEBHOOK_SECRETS_FILE): webhooks are signed")
        }
        guard gameWebhookRetryHours >= 1 else { throw ConfigError(file: source, key: "game.webhook_retry_hours", "at least 1") }
        var webhook = GameWebhook(url: gameWebhookURL, secrets: gameWebhookSecrets)
        webhook.retryFor = .hours(gameWebhookRetryHours)
        return webhook
    }

    /// One secret per non-empty line: two during a rotation.
    static func secrets(file path: String, setting: String, in configFile: String? = nil) throws -> [Secret] {
        let data = try secretFile(path, setting: setting, in: configFile)
        let lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !lines.isEmpty else { throw ConfigError(file: configFile, key: setting, "the file it names holds no secret") }
        return lines.enumerated().map { Secret(value: $1, origin: "file \(path), line \($0 + 1)") }
    }

    /// Every Apple URL at an `iapdesk simulator` (`http://127.0.0.1:9090`).
    public mutating func useSimulator(_ base: String) {
        let base = Self.trimmed(base)
        verifyReceipt = .simulator(base, sharedSecret: sharedSecret)
        serverAPIURL = base
        serverAPISandboxURL = "\(base)/sandbox"
    }

    /// A base URL without its trailing `/`.
    static func trimmed(_ base: String) -> String { base.hasSuffix("/") ? String(base.dropLast()) : base }

    /// The trust roots for signatures: `receipts.trust_roots` and `receipts.xcode_root`.
    public func trust() throws -> TrustRoots {
        var trust = TrustRoots()
        if let trustRoots { trust = try TrustRoots.load(directory: trustRoots) }
        if let xcodeRoot { trust.xcode = try TrustRoots.certificates(inFile: xcodeRoot) }
        return trust
    }

    /// What the AppStore clients need. The Server API is used only when the key file, key
    /// id and issuer id are all set; some but not all of them is an error naming the rest.
    public func appStoreSettings() throws -> AppStoreSettings {
        var endpoints = verifyReceipt
        endpoints.sharedSecret = sharedSecret
        endpoints.first = isProduction ? .production : .sandbox
        let parts: [(String, Bool)] = [("apple.key_file", privateKey != nil), ("apple.key_id", keyId != nil), ("apple.issuer_id", issuerId != nil)]
        var credentials: ServerAPICredentials?
        if let privateKey, let keyId, let issuerId {
            credentials = try ServerAPICredentials(
                issuerId: issuerId, keyId: keyId, p8: privateKey, productionURL: serverAPIURL, sandboxURL: serverAPISandboxURL)
        } else if parts.contains(where: \.1) {
            let missing = parts.filter { !$0.1 }.map(\.0).joined(separator: ", ")
            throw ConfigError(file: source, "the App Store Server API needs apple.key_file, apple.key_id and apple.issuer_id together; missing \(missing)")
        }
        var settings = AppStoreSettings(bundleId: bundleId, verifyReceipt: endpoints, serverAPI: credentials, trust: try trust())
        settings.requestTimeout = .seconds(timeoutSeconds)
        settings.otherApps = try otherApps.map { try $0.appleApp(sharing: settings, source: source) }
        return settings
    }

    static func environment(_ value: String, file: String?, key: String) throws -> Bool {
        switch value.lowercased() {
        case "production": return true
        case "sandbox": return false
        default: throw ConfigError(file: file, key: key, "expected \"production\" or \"sandbox\", got \"\(value)\"")
        }
    }

    static func secret(file path: String, setting: String, in configFile: String? = nil) throws -> Secret {
        let data = try secretFile(path, setting: setting, in: configFile)
        return Secret(value: String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), origin: "file \(path)")
    }

    /// A secret file's bytes. The error names the setting, never its value: a secret pasted
    /// where its path belongs must not be printed back.
    static func secretFile(_ path: String, setting: String, in configFile: String?) throws -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(file: configFile, key: setting, "cannot read the file this setting names (its value is not shown: it may be the secret itself)")
        }
        return data
    }

    /// For `iapdesk config`: every setting, secrets shown only by origin.
    public var summary: [(String, String)] {
        [
            ("config file", source ?? "(none; defaults)"),
            ("store", storeLocation.description),
            ("bundle id", bundleId),
            (
                "other apps",
                otherApps.isEmpty
                    ? "(none: [[apps]] adds games to this store)"
                    : otherApps.map {
                        "\($0.bundleId) (\($0.privateKey == nil ? "[apple]'s key" : "own key"), \($0.sharedSecret == nil ? "[apple]'s shared secret" : "own shared secret"))"
                    }
                    .joined(separator: "; ")
            ),
            ("Google Play", googlePlay.summary),
            ("environment", isProduction ? "production" : "sandbox"),
            ("stuck after", "\(stuckThresholdSeconds) s"),
            ("shared secret", sharedSecret?.description ?? "(not set)"),
            ("App Store Server API key", privateKey?.description ?? "(not set)"),
            ("key id", keyId ?? "(not set)"),
            ("issuer id", issuerId ?? "(not set)"),
            ("verifyReceipt", "\(verifyReceipt.productionURL), sandbox \(verifyReceipt.sandboxURL)"),
            ("App Store Server API", "\(serverAPIURL), sandbox \(serverAPISandboxURL)"),
            ("Apple time-out", "\(timeoutSeconds) s"),
            ("trust roots", trustRoots.map { "\($0) (\(trustRootsLoaded))" } ?? "(not set: signatures report UNVERIFIED)"),
            ("client tokens", clientTokensFile ?? "(not set: serve's intake needs [serve] client_tokens_file or IAPDESK_CLIENT_TOKENS_FILE)"),
            ("Xcode root", xcodeRoot ?? "(not set: Xcode receipts are not trusted)"),
            (
                "game webhook",
                gameWebhookURL.map { "\($0), \(gameWebhookSecrets.count) secret(s), retried \(gameWebhookRetryHours) h" } ?? "(not set: games pull /v1/events)"
            ),
            ("audit key", auditKey.map { "\($0) (\(auditKeyOrigin ?? "?"))" } ?? "(not set: the audit chain is not signed)"),
            ("audit witness", auditWitnessFile ?? "(not set: audit verify cannot tell a truncated log)"),
            ("theme", theme),
            ("console aliases", consoleAliases.isEmpty ? "(none)" : consoleAliases.keys.sorted().map { ":\($0)" }.joined(separator: " ")),
            ("refund policy", refundPolicy.map(Self.describe) ?? "(not set: support answers every refund request)"),
        ]
    }
}

extension Configuration {
    /// `[refunds]`: per product type `operator` or `answer`, `answer_before_deadline_hours`,
    /// and `prefer` (decline, grant-full, grant-prorated or none).
    fileprivate mutating func readRefundPolicy(_ reader: TOMLReader) throws {
        var policy = refundPolicy ?? RefundPolicy()
        var given = false
        for type in ProductType.allCases {
            guard let word = try reader.string("refunds", type.rawValue) else { continue }
            guard let mode = RefundPolicy.Mode(rawValue: word) else {
                throw ConfigError(file: reader.file, key: "refunds.\(type.rawValue)", "operator or answer, not \(word)")
            }
            policy.modes[type] = mode
            given = true
        }
        if let hours = try reader.int("refunds", "answer_before_deadline_hours") {
            guard (1...11).contains(hours) else {
                throw ConfigError(file: reader.file, key: "refunds.answer_before_deadline_hours", "1 to 11 (Apple waits 12)")
            }
            policy.answerBefore = .hours(Int64(hours))
            given = true
        }
        if let word = try reader.string("refunds", "prefer") {
            if word != RefundAnswerWords.none {
                guard let preference = RefundAnswerWords.preferences.first(where: { $0.word == word })?.preference else {
                    throw ConfigError(
                        file: reader.file, key: "refunds.prefer", "\(RefundAnswerWords.preferences.map(\.word).joined(separator: ", ")) or none, not \(word)")
                }
                policy.preference = preference
            }
            given = true
        }
        if given { refundPolicy = policy }
    }

    static func describe(_ policy: RefundPolicy) -> String {
        let modes = ProductType.allCases.map { "\($0.rawValue) \((policy.modes[$0] ?? .operator).rawValue)" }.joined(separator: ", ")
        let late = policy.answerBefore.map { ", answered \($0 / 3_600_000) h before the deadline when no one has" } ?? ""
        let prefer = policy.preference.map { ", prefers \($0.rawValue.lowercased())" } ?? ""
        return modes + late + prefer + " (only with the game's report and the player's consent)"
    }
}

extension Configuration {
    /// Whether the trust roots load, in words: how many certificates, or why not.
    var trustRootsLoaded: String {
        do {
            let roots = try trust()
            return "\(roots.apple.count) root(s) loaded"
        } catch {
            return "NOT LOADED: \(error)"
        }
    }
}
