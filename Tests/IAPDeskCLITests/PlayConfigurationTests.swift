import ConfigFiles
import Foundation
import GooglePlaySimulator
import TestSupport
import Testing

@testable import IAPDeskApp
@testable import IAPDeskCLI

/// `[google_play]` as a studio writes it, and its environment variables.
@Suite("Configuration: Google Play")
struct PlayConfigurationTests {
    static let none = ["XDG_CONFIG_HOME": "/nonexistent", "HOME": "/nonexistent"]

    private func file(_ text: String, named name: String = "iapdesk-\(UUID().uuidString).toml") throws -> String {
        let path = Scratch.url(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A service account key file as Play Console hands it out (the simulator's).
    private func keyFile() throws -> String {
        let keys = try PlayKeys()
        let path = Scratch.url("play-\(UUID().uuidString).json").path
        try JSONSerialization.data(withJSONObject: keys.serviceAccountFile(tokenURI: "http://127.0.0.1:1/token")).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("Unset: Apple only, and `iapdesk config` says so")
    func unset() throws {
        let config = try Configuration.load(path: nil, environment: Self.none)
        #expect(try config.googlePlay.settings(source: nil) == nil)
        #expect(config.summary.contains { $0.0 == "Google Play" && $0.1.contains("Apple only") })
    }

    @Test("The file's section gives the client its packages, key, push checks and the simulator's URLs; the key is never printed")
    func fromFile() throws {
        let key = try keyFile()
        let path = try file(
            """
            [google_play]
            package_names = ["com.example.game", "com.example.kitten"]
            service_account_key_file = "\(key)"
            push_audience = "https://iap.example.com/google/notifications"
            push_service_account_email = "rtdn@example.iam.gserviceaccount.com"
            simulator = "http://127.0.0.1:9091/"
            timeout_seconds = 7
            """)
        let config = try Configuration.load(path: path, environment: Self.none)
        let settings = try #require(try config.googlePlay.settings(source: path))
        #expect(settings.packageNames == ["com.example.game", "com.example.kitten"])
        #expect(settings.serviceAccount.clientEmail.hasSuffix(".iam.gserviceaccount.com"))
        #expect(settings.apiBase == "http://127.0.0.1:9091" && settings.push.certsURL == "http://127.0.0.1:9091/certs")
        #expect(settings.push.audience == "https://iap.example.com/google/notifications")
        #expect(settings.requestTimeout == .seconds(7))
        let shown = config.summary.map { "\($0.0) \($0.1)" }.joined(separator: "\n")
        #expect(shown.contains("com.example.kitten") && !shown.contains("PRIVATE KEY"), "\(shown)")
    }

    @Test("The environment sets every key; half a configuration, a key inline, a key file that is not one, and a zero time-out are refused by name")
    func refusals() throws {
        let key = try keyFile()
        let environment = Self.none.merging([
            "IAPDESK_GOOGLE_PLAY_PACKAGE_NAMES": "com.a, com.b", "IAPDESK_GOOGLE_PLAY_SERVICE_ACCOUNT_KEY_FILE": key,
            "IAPDESK_GOOGLE_PLAY_PUSH_AUDIENCE": "https://a/push", "IAPDESK_GOOGLE_PLAY_PUSH_SERVICE_ACCOUNT_EMAIL": "push@a",
            "IAPDESK_GOOGLE_PLAY_API_URL": "http://127.0.0.1:1", "IAPDESK_GOOGLE_PLAY_CERTS_URL": "http://127.0.0.1:1/c",
            "IAPDESK_GOOGLE_PLAY_TIMEOUT_SECONDS": "3",
        ]) { $1 }
        let settings = try #require(try Configuration.load(path: nil, environment: environment).googlePlay.settings(source: nil))
        #expect(settings.packageNames == ["com.a", "com.b"] && settings.apiBase == "http://127.0.0.1:1" && settings.push.certsURL == "http://127.0.0.1:1/c")
        #expect(settings.requestTimeout == .seconds(3))

        let half = try Configuration.load(path: nil, environment: Self.none.merging(["IAPDESK_GOOGLE_PLAY_PACKAGE_NAMES": "com.a"]) { $1 })
        let error = try #require(throws: ConfigError.self) { try half.googlePlay.settings(source: nil) }
        #expect("\(error)".contains("google_play.service_account_key_file") && "\(error)".contains("google_play.push_audience"))

        let inline = try file("[google_play]\nservice_account_key = \"-----BEGIN PRIVATE KEY-----\"\n")
        let refused = try #require(throws: ConfigError.self) { try Configuration.load(path: inline, environment: Self.none) }
        #expect("\(refused)".contains("_file") && !"\(refused)".contains("BEGIN PRIVATE KEY"))

        let notAKey = try file("{\"type\":\"service_account\",\"client_email\":\"x@y\"}", named: "not-a-key-\(UUID().uuidString).json")
        let broken = try Configuration.load(path: nil, environment: environment.merging(["IAPDESK_GOOGLE_PLAY_SERVICE_ACCOUNT_KEY_FILE": notAKey]) { $1 })
        let unreadable = try #require(throws: ConfigError.self) { try broken.googlePlay.settings(source: nil) }
        #expect("\(unreadable)".contains("private_key"))

        #expect(throws: ConfigError.self) {
            try Configuration.load(path: nil, environment: environment.merging(["IAPDESK_GOOGLE_PLAY_TIMEOUT_SECONDS": "0"]) { $1 })
        }
        #expect(throws: ConfigError.self) { try Configuration.load(path: try file("[google_play]\ntimeout_seconds = 0\n"), environment: Self.none) }
    }
}
