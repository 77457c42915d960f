import AppStore
import ConfigFiles
import Foundation
import OrderDomain
import OrderStore
import Presentation
import Receipts
import Server

/// iapdesk's configuration: `iapdesk.toml`, overridden by environment variables, which
/// flags override in turn. Every setting is declared once, with its variable, form, checks
/// and meaning, in `Settings.swift` (`iapdesk config --settings` lists them). Secrets come
/// only from files or environment variables: a secret written into the TOML file is refused.
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
    public var timeoutSeconds: Int64 = 30
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
        settings.playApps = googlePlay.packageNames
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
        let settings = Setting.all
        let sections = Set(settings.compactMap(\.section))
        try reader.onlyKeys([], tables: sections.union(["apps"]), in: nil)
        for section in sections {
            let keys = Set(settings.filter { $0.section == section }.compactMap(\.key))
            try reader.onlyKeys(keys, tables: section == "console" ? ["aliases"] : [], in: section, refusing: Setting.inlineSecrets[section] ?? [])
        }
        for setting in settings {
            guard let section = setting.section, let key = setting.key, let value = try setting.value(in: reader) else { continue }
            let place = Setting.Place(name: setting.name, file: file, line: reader.line(of: key, in: section))
            try setting.apply(&self, value, place)
        }
        try read(aliases: reader)
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

    /// `[console.aliases]`: `:NAME` opens the order list with the filter, or runs the `:command`.
    private mutating func read(aliases reader: TOMLReader) throws {
        for (name, value) in try reader.strings("console", table: "aliases") ?? [:] {
            guard !name.isEmpty, name.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-" }) else {
                throw reader.error("console.aliases", name, "an alias is one word (letters, digits, _ and -)")
            }
            consoleAliases[name] = value
        }
    }

    /// Every setting's variable that is set, in the declarations' order.
    mutating func apply(environment env: [String: String]) throws {
        for setting in Setting.all {
            guard let variable = setting.variable, let value = try setting.value(in: env) else { continue }
            try setting.apply(&self, value, Setting.Place(name: variable, file: nil))
        }
    }

    /// The refund policy, started when its first setting is read.
    mutating func changeRefundPolicy(_ change: (inout RefundPolicy) -> Void) {
        var policy = refundPolicy ?? RefundPolicy()
        change(&policy)
        refundPolicy = policy
    }

    /// A whole number of at least 1 from a variable, or an error naming it.
    static func number(_ text: String, _ variable: String) throws -> Int64 {
        guard let number = Int64(text), number >= 1 else { throw ConfigError(key: variable, "a whole number of at least 1, not \(text)") }
        return number
    }

    mutating func loadAuditKey(file path: String, setting: String, in configFile: String? = nil) throws {
        let material = try Self.secretFile(path, setting: setting, in: configFile)
        do {
            auditKey = try AuditKey(material: material)
        } catch {
            throw ConfigError(file: configFile, key: setting, ErrorWords.what(error))
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
