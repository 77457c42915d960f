import Foundation
import OrderDomain
import OrderStore
import TestSupport
import Testing

/// A studio's first run: `iapdesk init` instead of hand-written files and SQL. Run as the
/// built binary on both backends, as a studio's first command would be.
@Suite("CLI: iapdesk init", .needsBinary)
struct InitCommandTests {
    static func mode(_ path: String) -> Int? { (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int }

    @Test(
        "init writes an owner-only configuration, audit key and client token, creates the store with its runner as admin, prints Apple's URLs and no secret; every command then runs from it; a second init is refused",
        arguments: Backend.all)
    func firstRun(backend: Backend) async throws {
        let folder = Scratch.url("iapdesk-init-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = ["init", "--bundle-id", "com.example.dragonclicker", "--dir", folder, "--public-url", "https://iap.dragon.example/"]
        // PostgreSQL's URL comes as a production's would, with its password: from IAPDESK_DB, kept out of the file.
        var environment: [String: String] = [:]
        if case .postgres(let url) = try await backend.freshLocation() { environment["IAPDESK_DB"] = url }
        func run(_ arguments: [String]) async throws -> (Int32, String, String) { try await CLIErrorTests.run(arguments, environment: environment) }
        var (status, output, error) = try await run(arguments)
        #expect(status == 0, "\(error)")
        #expect(output.contains("Production Server URL  https://iap.dragon.example/apple/notifications/production"), "\(output)")
        #expect(output.contains("Sandbox Server URL     https://iap.dragon.example/apple/notifications/sandbox"))
        let tokens = try String(contentsOfFile: folder + "/client-tokens", encoding: .utf8)
        let token = try #require(tokens.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(tokens.hasPrefix("game-server ") && token.count == 64)
        #expect(!output.contains(token) && !error.contains(token), "the token is never printed")
        #expect(Self.mode(folder) == 0o700)
        for file in ["iapdesk.toml", "audit.key", "client-tokens"] + (backend == .sqlite ? ["iapdesk.sqlite"] : []) {
            #expect(Self.mode(folder + "/" + file) == 0o600, "\(file) is owner-only")
        }

        // Every command runs from what init wrote: the store, its admin, its signed audit log.
        let config = folder + "/iapdesk.toml"
        (status, output, error) = try await run(["operator", "list", "--config", config])
        #expect(status == 0 && output.contains("admin"), "\(output)\(error)")
        (status, output, error) = try await run(["config", "--config", config])
        #expect(status == 0 && output.contains("com.example.dragonclicker") && output.contains(folder + "/client-tokens"), "\(output)\(error)")
        (status, output, error) = try await run(["audit", "verify", "--config", config])
        #expect(status == 0 && output.contains("audit log intact") && output.contains("signed with audit key"), "\(output)\(error)")
        (status, output, error) = try await run(
            [
                "product", "add", "gems_100", "--type", "consumable", "--name", "100 颗宝石", "--price", "6.00", "--currency", "CNY", "--reason",
                "launch catalogue", "--config", config,
            ])
        #expect(status == 0, "the first admin adds the catalogue: \(output)\(error)")

        let written = try String(contentsOfFile: config, encoding: .utf8)
        #expect(written.contains("db = ") == (backend == .sqlite), "a URL from IAPDESK_DB stays out of the file: \(written)")

        // Nothing is overwritten.
        (status, output, error) = try await run(arguments)
        #expect(status != 0 && error.contains("never overwrites"), "\(output)\(error)")
        #expect(try String(contentsOfFile: folder + "/client-tokens", encoding: .utf8) == tokens)
    }

    @Test("init refuses a bundle id that is no reverse-DNS id, an unknown environment and a password in the URL, before writing anything")
    func refusals() async throws {
        let folder = Scratch.url("iapdesk-init-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var (status, _, error) = try await CLIErrorTests.run(["init", "--bundle-id", "dragon clicker", "--dir", folder])
        #expect(status != 0 && error.contains("reverse-DNS"), "\(error)")
        (status, _, error) = try await CLIErrorTests.run(["init", "--bundle-id", "com.example.dragon", "--environment", "staging", "--dir", folder])
        #expect(status != 0 && error.contains("production or sandbox"), "\(error)")
        (status, _, error) = try await CLIErrorTests.run([
            "init", "--bundle-id", "com.example.dragon", "--db", "postgres://ops:hunter2@db/iap", "--dir", folder,
        ])
        #expect(status != 0 && error.contains("goes in IAPDESK_DB instead") && !error.contains("hunter2"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: folder))
        // A store that cannot be opened leaves nothing half set up: the same init runs again once it can.
        (status, _, error) = try await CLIErrorTests.run(
            ["init", "--bundle-id", "com.example.dragon", "--db", "postgres://nobody@127.0.0.1:1/none", "--dir", folder])
        #expect(status != 0, "\(error)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).isEmpty, "\(error)")
    }
}
