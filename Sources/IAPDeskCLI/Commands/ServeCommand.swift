import AppStore
import ArgumentParser
import Foundation
import GooglePlay
import Logging
import OrderDomain
import OrderStore
import Server

/// `iapdesk serve`: the intake API for game servers and the worker that verifies every
/// stored receipt with Apple, over the configured store. Game servers' tokens come from
/// the file named by IAPDESK_CLIENT_TOKENS_FILE (one `name token` per line), never the TOML.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve the intake API for game servers and run the worker (SIGTERM stops gracefully).")
    @OptionGroup var store: StoreOptions
    @Option(help: "Address and port to listen on (HOST:PORT).") var listen = ListenAddress(host: "127.0.0.1", port: 8080)
    @Option(help: "all, intake (HTTP only) or worker (no HTTP).") var role: ServeRole = .all
    @Option(help: "Seconds a worker holds a job before another worker may take it (a killed worker's jobs come back then).")
    var leaseSeconds: Int64 = 120
    @Option(help: "Seconds a stop (SIGTERM) may take: requests and jobs in flight finish, leases are given back; past it what is left is cancelled.")
    var graceSeconds: Int64 = 30

    func run() async throws {
        let tokens = try Self.clientTokens(from: try store.configuration().clientTokensFile, needed: role != .worker)
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        guard leaseSeconds >= 5 else { throw ValidationError("--lease-seconds is at least 5") }
        guard graceSeconds >= 1 else { throw ValidationError("--grace-seconds is at least 1") }
        var workerSettings = Worker.Settings()
        workerSettings.lease = .seconds(leaseSeconds)
        try await store.withStore { store, configuration in
            // Every request and every job writes: on a store this process can only read it
            // would answer nothing but errors.
            if store.isReplica {
                throw CLIError("serve needs the primary: \(configuration.storeLocation) is a PostgreSQL hot standby, which only reads (consoles may use it)")
            }
            if store.isReadOnly { throw CLIError("serve needs to write the store: \(configuration.storeLocation) is read-only for this account") }
            workerSettings.refundPolicy = configuration.refundPolicy
            let googlePlay = try configuration.googlePlay.settings(source: configuration.source).map(PlayClient.init(settings:))
            do {
                try await AppleVerifier.using(try configuration.appStoreSettings()) { verifier in
                    let server = try await IAPDeskServer.start(
                        store: store, verifier: verifier, googlePlay: googlePlay, game: try configuration.gameWebhook(), tokens: tokens, role: role,
                        host: listen.host, port: listen.port, workerSettings: workerSettings, signals: [.sigterm, .sigint],
                        grace: .seconds(graceSeconds))
                    let stores = googlePlay.map { "Apple and Google Play (\($0.settings.packageNames.joined(separator: ", ")))" } ?? "Apple"
                    print("iapdesk serve (\(role.rawValue)) on \(server.baseURL ?? "no HTTP"), store \(configuration.storeLocation.description), \(stores)")
                    fflush(nil)
                    try await server.wait()
                }
            } catch {
                await googlePlay?.shutdown()
                throw error
            }
            await googlePlay?.shutdown()
        }
    }

    /// The game servers' tokens from `[serve] client_tokens_file` or IAPDESK_CLIENT_TOKENS_FILE;
    /// errors name the setting, never a token.
    static func clientTokens(from path: String?, needed: Bool) throws -> ClientTokens {
        let setting = "[serve] client_tokens_file / IAPDESK_CLIENT_TOKENS_FILE"
        guard let path else {
            if needed { throw ValidationError("set \(setting) to a file of `name token` lines (one per game server)") }
            return ClientTokens([])
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("\(setting): cannot read the file it names")
        }
        return try ClientTokens(file: String(decoding: data, as: UTF8.self), origin: "client_tokens_file")
    }
}
