import AppStoreSimulator
import ConfigFiles
import Foundation
import TestSupport
import Testing

@testable import IAPDeskApp
@testable import IAPDeskCLI

@Suite("Configuration")
struct ConfigurationTests {
    private func file(_ text: String) throws -> String {
        let path = Scratch.url("iapdesk-\(UUID().uuidString).toml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("Defaults without a file: ./iapdesk.sqlite, production, 5 min")
    func defaults() throws {
        let config = try Configuration.load(path: nil, environment: ["XDG_CONFIG_HOME": "/nonexistent", "HOME": "/nonexistent"])
        #expect(config.db == "./iapdesk.sqlite")
        #expect(config.isProduction)
        #expect(config.storeSettings.stuckThreshold == 300_000)
    }

    @Test("The file is read; the environment overrides it")
    func precedence() throws {
        let secret = try file("  s3cr3t-shared\n")
        let path = try file(
            """
            [store]
            db = "/srv/iap.sqlite"
            bundle_id = "com.game.one"
            environment = "sandbox"
            stuck_threshold_seconds = 120

            [apple]
            shared_secret_file = "\(secret)"
            """)
        let fromFile = try Configuration.load(path: path, environment: [:])
        #expect(fromFile.db == "/srv/iap.sqlite" && fromFile.bundleId == "com.game.one" && !fromFile.isProduction)
        #expect(fromFile.stuckThresholdSeconds == 120)
        #expect(fromFile.sharedSecret?.value == "s3cr3t-shared")
        let overridden = try Configuration.load(path: path, environment: ["IAPDESK_DB": "postgres://ops@db/iap", "IAPDESK_ENVIRONMENT": "production"])
        #expect(overridden.db == "postgres://ops@db/iap" && overridden.isProduction)
        #expect(try Configuration.load(path: nil, environment: ["IAPDESK_CONFIG": path]).bundleId == "com.game.one")
    }

    @Test("Every key of the file has its environment variable, checked as the file's is")
    func everyKeyFromTheEnvironment() throws {
        let none = ["XDG_CONFIG_HOME": "/nonexistent", "HOME": "/nonexistent"]
        let config = try Configuration.load(
            path: nil,
            environment: none.merging([
                "IAPDESK_STUCK_THRESHOLD_SECONDS": "120", "IAPDESK_DEADLINE_SECONDS": "4", "IAPDESK_APPLE_TIMEOUT_SECONDS": "9",
                "IAPDESK_VERIFY_RECEIPT_URL": "http://127.0.0.1:9/verifyReceipt", "IAPDESK_SERVER_API_URL": "http://127.0.0.1:9",
                "IAPDESK_SERVER_API_SANDBOX_URL": "http://127.0.0.1:9/sandbox", "IAPDESK_GAME_WEBHOOK_RETRY_HOURS": "24",
                "IAPDESK_REFUNDS_CONSUMABLE": "answer", "IAPDESK_REFUNDS_PREFER": "decline", "IAPDESK_REFUNDS_ANSWER_BEFORE_DEADLINE_HOURS": "3",
            ]) { $1 })
        #expect(config.stuckThresholdSeconds == 120 && config.databaseDeadlineSeconds == 4 && config.timeoutSeconds == 9)
        #expect(config.verifyReceipt.productionURL == "http://127.0.0.1:9/verifyReceipt" && config.serverAPISandboxURL == "http://127.0.0.1:9/sandbox")
        #expect(config.gameWebhookRetryHours == 24)
        #expect(config.refundPolicy?.modes[.consumable] == .answer && config.refundPolicy?.answerBefore == .hours(3))
        #expect(throws: ConfigError.self) { try Configuration.load(path: nil, environment: none.merging(["IAPDESK_DEADLINE_SECONDS": "0"]) { $1 }) }
        #expect(throws: ConfigError.self) { try Configuration.load(path: nil, environment: none.merging(["IAPDESK_REFUNDS_CONSUMABLE": "maybe"]) { $1 }) }
    }

    @Test("Every count or duration (one declaration each) refuses 0 the same way from the file (naming its line and key) and from its variable")
    func zeroRefusedEitherWay() throws {
        let none = ["XDG_CONFIG_HOME": "/nonexistent", "HOME": "/nonexistent"]
        let counts = Setting.all.filter { if case .count = $0.form { true } else { false } }
        #expect(counts.count >= 6, "\(counts.map(\.name))")
        for setting in counts {
            let (section, key, variable) = (try #require(setting.section), try #require(setting.key), try #require(setting.variable))
            let path = try file("[\(section)]\n\n\(key) = 0\n")
            #expect {
                try Configuration.load(path: path, environment: none)
            } throws: { error in
                let error = error as? ConfigError
                return error?.key == "\(section).\(key)" && error?.line == 3 && "\(String(describing: error))".contains("at least 1")
            }
            #expect {
                try Configuration.load(path: nil, environment: none.merging([variable: "0"]) { $1 })
            } throws: { error in
                (error as? ConfigError)?.key == variable && "\(error)".contains("at least 1")
            }
        }
    }

    @Test("Every setting has one key and one variable, each named once; the Configuration article lists every one of them")
    func everySettingDeclaredOnceAndDocumented() throws {
        let names = Setting.all.map(\.name), variables = Setting.all.compactMap(\.variable)
        #expect(Set(names).count == names.count && Set(variables).count == variables.count, "a key or a variable declared twice")
        let article = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "../../Sources/OrderStore/OrderStore.docc/Configuration.md"),
            encoding: .utf8)
        for setting in Setting.all {
            if let key = setting.fileKey { #expect(article.contains("`\(key)`"), "the article names \(key)") }
            if let variable = setting.variable { #expect(article.contains("`\(variable)`"), "the article names \(variable)") }
        }
    }

    @Test("[refunds] sets the refund policy per product type; a mode, an hour or a preference outside Apple's words is refused naming the key")
    func refundPolicy() throws {
        let path = try file(
            """
            [refunds]
            consumable = "answer"
            auto_renewable = "operator"
            answer_before_deadline_hours = 2
            prefer = "decline"
            """)
        let policy = try #require(try Configuration.load(path: path, environment: [:]).refundPolicy)
        #expect(policy.modes == [.consumable: .answer, .autoRenewable: .operator] && policy.answerBefore == 2 * 3_600_000 && policy.preference == .decline)
        #expect(try Configuration.load(path: try file("[store]\ndb = \"x\"\n"), environment: [:]).refundPolicy == nil, "support answers by default")
        for (text, key) in [
            ("consumable = \"always\"", "refunds.consumable"), ("answer_before_deadline_hours = 12", "refunds.answer_before_deadline_hours"),
            ("prefer = \"refund\"", "refunds.prefer"), ("sometimes = 1", "refunds.sometimes"),
        ] {
            do {
                _ = try Configuration.load(path: try file("[refunds]\n\(text)\n"), environment: [:])
                Issue.record("accepted \(text)")
            } catch let error as ConfigError {
                #expect(error.key == key, "\(text): \(error)")
            }
        }
    }

    @Test("[console.aliases] names saved filters and commands; an alias that is not one word is refused naming it")
    func aliases() throws {
        let path = try file("[console]\ntheme = \"mono\"\n\n[console.aliases]\nvipstuck = \"state:verify_retry product:vip_monthly\"\nq = \":refunds\"\n")
        #expect(try Configuration.load(path: path, environment: [:]).consoleAliases == ["vipstuck": "state:verify_retry product:vip_monthly", "q": ":refunds"])
        do {
            _ = try Configuration.load(path: try file("[console.aliases]\n\"two words\" = \"x\"\n"), environment: [:])
            Issue.record("accepted an alias with a space")
        } catch let error as ConfigError {
            #expect(error.key == "console.aliases.two words", "\(error)")
        }
    }

    @Test(
        "[serve] client_tokens_file names the token file (the environment overrides it), a token written into the file is refused, and config says whether the trust roots load"
    )
    func serveAndTrust() throws {
        let path = try file("[serve]\nclient_tokens_file = \"/etc/iapdesk/clients\"\n\n[receipts]\ntrust_roots = \"/nonexistent/roots\"\n")
        let config = try Configuration.load(path: path, environment: [:])
        #expect(config.clientTokensFile == "/etc/iapdesk/clients")
        #expect(try Configuration.load(path: path, environment: ["IAPDESK_CLIENT_TOKENS_FILE": "/run/clients"]).clientTokensFile == "/run/clients")
        let trust = try #require(config.summary.first { $0.0 == "trust roots" }?.1)
        #expect(trust.hasPrefix("/nonexistent/roots (NOT LOADED:"), "\(trust)")
        #expect(throws: ConfigError.self) { try Configuration.load(path: try file("[serve]\ntoken = \"abc\"\n"), environment: [:]) }
    }

    @Test(
        "[[apps]] adds a studio's other games: each takes [apple]'s shared secret and key unless it names its own; a missing bundle id, an inline secret, an unknown key, a half key or a game named twice is refused"
    )
    func otherApps() throws {
        let dragonSecret = try file("dragon-secret\n")
        let kittenSecret = try file("kitten-secret\n")
        let key = try file(SimulatorAPIKey().p8PEM)
        let otherKey = try file(SimulatorAPIKey(keyId: "KITTEN0001").p8PEM)
        let head = """
            [store]
            bundle_id = "com.studio.dragon"

            [apple]
            shared_secret_file = "\(dragonSecret)"
            key_file = "\(key)"
            key_id = "DRAGON0001"
            issuer_id = "issuer-1"

            """
        let config = try Configuration.load(
            path: try file(
                head + """
                    [[apps]]
                    bundle_id = "com.studio.kitten"
                    shared_secret_file = "\(kittenSecret)"
                    key_file = "\(otherKey)"
                    key_id = "KITTEN0001"
                    issuer_id = "issuer-2"

                    [[apps]]
                    bundle_id = "com.studio.mole"
                    """), environment: [:])
        #expect(config.storeSettings.apps == ["com.studio.dragon", "com.studio.kitten", "com.studio.mole"])
        let apple = try config.appStoreSettings()
        #expect([apple.bundleId] + apple.otherApps.map(\.bundleId) == ["com.studio.dragon", "com.studio.kitten", "com.studio.mole"])
        let kitten = try #require(apple.otherApps.first)
        #expect(kitten.verifyReceipt.sharedSecret?.value == "kitten-secret" && kitten.serverAPI?.keyId == "KITTEN0001")
        let mole = try #require(apple.otherApps.last)
        #expect(mole.verifyReceipt.sharedSecret?.value == "dragon-secret" && mole.serverAPI?.keyId == "DRAGON0001", "the team's key and primary secret")
        let summary = try #require(config.summary.first { $0.0 == "other apps" }?.1)
        #expect(summary.contains("com.studio.kitten (own key, own shared secret)") && summary.contains("com.studio.mole ([apple]'s key"), "\(summary)")
        #expect(!summary.contains("kitten-secret"))

        for (bad, why) in [
            ("[[apps]]\nshared_secret_file = \"\(kittenSecret)\"\n", "bundle_id"),
            ("[[apps]]\nbundle_id = \"com.b\"\nshared_secret = \"abc\"\n", "never from the configuration file"),
            ("[[apps]]\nbundle_id = \"com.b\"\ncolour = \"red\"\n", "unknown setting"),
            ("[[apps]]\nbundle_id = \"com.studio.dragon\"\n", "named twice"),
        ] {
            #expect(throws: ConfigError.self, "\(why)") { try Configuration.load(path: try file(head + bad), environment: [:]) }
            do { _ = try Configuration.load(path: try file(head + bad), environment: [:]) } catch { #expect("\(error)".contains(why), "\(error)") }
        }
        let half = try Configuration.load(path: try file(head + "[[apps]]\nbundle_id = \"com.b\"\nkey_id = \"K\"\n"), environment: [:])
        #expect(throws: ConfigError.self, "a key id without its key") { try half.appStoreSettings() }
        #expect(throws: ConfigError.self, "[[apps]] without the first app") {
            try Configuration.load(path: try file("[[apps]]\nbundle_id = \"com.b\"\n"), environment: [:])
        }
    }

    @Test("A secret written into the file is refused, naming file, line and key")
    func secretInFile() throws {
        let path = try file("[store]\ndb = \"x\"\n\n[apple]\nshared_secret = \"abc\"\n")
        #expect(throws: ConfigError.self) { try Configuration.load(path: path, environment: [:]) }
        do { _ = try Configuration.load(path: path, environment: [:]) } catch let error as ConfigError {
            #expect(error.file == path && error.line == 5 && error.key == "apple.shared_secret")
            #expect(!error.description.contains("abc"))
        }
    }

    @Test("A secret pasted where its file's path belongs is never printed back: the error names the setting")
    func secretInPathSetting() throws {
        let secret = "0123456789abcdef-shared-secret"
        let path = try file("[apple]\nshared_secret_file = \"\(secret)\"\n")
        do {
            _ = try Configuration.load(path: path, environment: [:])
            Issue.record("a missing secret file was accepted")
        } catch let error as ConfigError {
            #expect(error.key == "apple.shared_secret_file" && error.file == path, "\(error)")
            #expect(!error.description.contains(secret), "\(error)")
        }
        do {
            _ = try Configuration.load(path: nil, environment: ["IAPDESK_GAME_WEBHOOK_SECRETS_FILE": secret])
            Issue.record("a missing secrets file was accepted")
        } catch let error as ConfigError {
            #expect(error.key == "IAPDESK_GAME_WEBHOOK_SECRETS_FILE" && !error.description.contains(secret), "\(error)")
        }
    }

    @Test("Typos and wrong types are errors with their line; broken TOML names its line")
    func badFiles() throws {
        let typo = try file("[store]\nbundle = \"x\"\n")
        #expect(throws: ConfigError(file: typo, line: 2, key: "store.bundle", "unknown setting")) { try Configuration.load(path: typo, environment: [:]) }
        let wrongType = try file("[store]\n\nstuck_threshold_seconds = \"five\"\n")
        #expect(throws: ConfigError(file: wrongType, line: 3, key: "store.stuck_threshold_seconds", "expected a non-negative integer")) {
            try Configuration.load(path: wrongType, environment: [:])
        }
        let broken = try file("[store]\ndb = \"unterminated\n")
        do { _ = try Configuration.load(path: broken, environment: [:]); Issue.record("broken TOML accepted") } catch let error as ConfigError {
            #expect(error.line == 2)
        }
        #expect(throws: ConfigError(file: "/no/such.toml", "no such configuration file")) { try Configuration.load(path: "/no/such.toml", environment: [:]) }
    }

    @Test("Secrets never appear in descriptions or the summary")
    func secretsHidden() throws {
        let config = try Configuration.load(
            path: nil, environment: ["IAPDESK_SHARED_SECRET": "hunter2-shared", "XDG_CONFIG_HOME": "/nonexistent", "HOME": "/nonexistent"])
        #expect(config.sharedSecret?.value == "hunter2-shared")
        let shown = "\(config.sharedSecret!) \(String(reflecting: config.sharedSecret!)) " + config.summary.map { "\($0.0) \($0.1)" }.joined()
        #expect(!shown.contains("hunter2"))
        #expect(shown.contains("env IAPDESK_SHARED_SECRET"))
    }
}
