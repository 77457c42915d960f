import ArgumentParser
import Foundation
import OrderDomain
import OrderStore

/// `iapdesk init`: a studio's first run without SQL or hand-written files. In one folder
/// (owner-only) it writes the configuration, a new audit key and the game server's client
/// token, creates the store and makes the person running it its first admin, then says what
/// is left to do: Apple's key, the catalogue, `serve`, and the two URLs to paste into App
/// Store Connect. It never overwrites anything, and prints no secret.
struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Set up a new store for an app: configuration, store, audit key, a client token for the game server, you as first admin.")

    @Option(help: ArgumentHelp("The app's bundle id: R5 checks every receipt against it.", valueName: "id")) var bundleId: String
    @Option(
        help: ArgumentHelp(
            "Where to write iapdesk.toml, the audit key and the client tokens (default: where iapdesk looks, ~/.config/iapdesk).", valueName: "DIR"))
    var dir: String?
    @Option(
        help: ArgumentHelp(
            "The store: a SQLite file (default: IAPDESK_DB, else DIR/iapdesk.sqlite) or the postgres:// URL of an empty database (with a password: IAPDESK_DB).",
            valueName: "location"))
    var db: String?
    @Option(help: "production (sandbox purchases are marked apart, R2) or sandbox (a store for testers).") var environment = "production"
    @Option(help: ArgumentHelp("The game server's name, as the audit log and the metrics name it.", valueName: "name")) var client = "game-server"
    @Option(help: ArgumentHelp("The https address serve will be reached at, for Apple's notification URLs.", valueName: "URL"))
    var publicUrl = "https://iap.example.com"

    func validate() throws {
        guard bundleId.range(of: #"^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$"#, options: .regularExpression) != nil else {
            throw ValidationError("--bundle-id is a reverse-DNS id such as com.example.game")
        }
        guard ["production", "sandbox"].contains(environment) else { throw ValidationError("--environment is production or sandbox") }
        if let db, URLComponents(string: db)?.password != nil {
            // The URL goes into iapdesk.toml, and a secret never goes there.
            throw ValidationError(
                "--db: a URL with a password goes in IAPDESK_DB instead (init writes --db into iapdesk.toml; from IAPDESK_DB it leaves it out)")
        }
        guard client.range(of: #"^[A-Za-z0-9._-]+$"#, options: .regularExpression) != nil else {
            throw ValidationError("--client is one word (letters, digits, . _ -)")
        }
    }

    func run() async throws {
        let variables = ProcessInfo.processInfo.environment
        let folder = dir ?? ((variables["XDG_CONFIG_HOME"] ?? ((variables["HOME"] ?? NSHomeDirectory()) + "/.config")) + "/iapdesk")
        let files = InitFiles(folder: folder)
        try files.prepare()
        // A URL in IAPDESK_DB may carry a password: it stays in the environment, out of the file.
        let fromEnvironment = db == nil ? variables["IAPDESK_DB"] : nil
        let location = db ?? fromEnvironment ?? folder + "/iapdesk.sqlite"

        let key: AuditKey
        let admin = OperatorIdentity.current
        do {
            key = try AuditKeyFile.create(files.auditKey)
            try OwnerOnlyFile.write("\(client) \(Self.newToken())\n", to: files.clientTokens)
            try OwnerOnlyFile.write(
                files.configuration(db: fromEnvironment == nil ? location : nil, bundleId: bundleId, environment: environment), to: files.config)
            // Opened as every later command opens it: through the file just written.
            let options = try StoreOptions.parse(["--config", files.config] + (fromEnvironment == nil ? ["--db", location] : []))
            try await options.withStore { store, _ in
                guard try await store.reports.counts().total == 0, try await store.operators.list().isEmpty else {
                    throw CLIError("\(StoreLocation(location)) already holds a store: init starts a new one (use its own configuration instead)")
                }
                try await store.operators.add(name: admin, role: .admin, by: Operator(name: admin, role: .admin))
            }
        } catch {
            // Nothing half set up: the files this run wrote go, so that init can simply be run again.
            files.removeWritten()
            throw error
        }
        let base = publicUrl.hasSuffix("/") ? String(publicUrl.dropLast()) : publicUrl
        print(
            """
            iapdesk is set up for \(bundleId) (\(environment)) in \(folder):
              configuration  \(files.config)
              store          \(StoreLocation(location))
              audit key      \(files.auditKey) (\(key)); keep a copy where the database's administrators cannot read it
              client token   \(files.clientTokens): \(client)'s token, for the game server (not shown here)
              first admin    \(admin)
            \(dir == nil && variables["IAPDESK_CONFIG"] == nil ? "" : "Every command reads it with --config \(files.config) (or IAPDESK_CONFIG=\(files.config)).\n")
            Next:
              1. Apple: in \(files.config), [apple] key_file, key_id and issuer_id (App Store Connect: Users and Access,
                 Integrations, In-App Purchase) and shared_secret_file (the app's shared secret, for verifyReceipt).
              2. The catalogue: iapdesk product import products.csv (or product add).
              3. iapdesk serve --listen 127.0.0.1:8080, behind the TLS proxy that answers \(base).
              4. App Store Connect, the app, App Store Server Notifications, Version 2:
                   Production Server URL  \(base)/apple/notifications/production
                   Sandbox Server URL     \(base)/apple/notifications/sandbox
              5. The game server: POST \(base)/v1/orders, then POST \(base)/v1/orders/ORDER/receipts,
                 each with "Authorization: Bearer" and its token.
            """)
    }

    /// 32 random bytes as hex: a bearer token no one guesses.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }
}

/// The files `init` writes, in one owner-only folder.
struct InitFiles {
    let folder: String
    var config: String { folder + "/iapdesk.toml" }
    var auditKey: String { folder + "/audit.key" }
    var clientTokens: String { folder + "/client-tokens" }

    /// The folder, owner-only; refused when a configuration is already there.
    func prepare() throws {
        let manager = FileManager.default
        if !manager.fileExists(atPath: folder) {
            try manager.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        for path in [config, auditKey, clientTokens] where manager.fileExists(atPath: path) {
            throw CLIError("\(path) exists: iapdesk init never overwrites (this folder is set up already)")
        }
    }

    /// Removes what `init` writes (each was new: `prepare` refused existing ones).
    func removeWritten() {
        for path in [config, auditKey, clientTokens] { try? FileManager.default.removeItem(atPath: path) }
    }

    /// The file's text; `db` nil when the store's URL comes from IAPDESK_DB.
    func configuration(db: String?, bundleId: String, environment: String) -> String {
        """
        # Written by iapdesk init. Secrets stay in files of their own (owner-only); this file
        # only names them. Every key also has an environment variable (README: Configuration).

        [store]
        \(db.map { "db = \"\($0)\"" } ?? "# db: from IAPDESK_DB, so that its password stays out of this file")
        bundle_id = "\(bundleId)"
        environment = "\(environment)"

        [apple]
        # The In-App Purchase key from App Store Connect, for the App Store Server API:
        # key_file = "\(folder)/SubscriptionKey_KEYID.p8"
        # key_id = "KEYID"
        # issuer_id = "00000000-0000-0000-0000-000000000000"
        # The app's shared secret, for verifyReceipt:
        # shared_secret_file = "\(folder)/shared-secret"

        [serve]
        client_tokens_file = "\(clientTokens)"

        [audit]
        key_file = "\(auditKey)"
        witness_file = "\(folder)/audit.witness"

        """
    }
}
