import Foundation
import SyntheticData
import TestSupport
import Testing

/// The rehearsal the Console article describes, by hand as an engineer would do it: `iapdesk
/// play-simulator` prints the variables that point `serve` at it; a `serve` started with
/// them takes the simulator's pushes, verifies a purchase made through its controls, and
/// acknowledges it at the simulated Google.
@Suite("iapdesk play-simulator", .needsBinary)
struct PlaySimulatorCommandTests {
    @Test("play-simulator's printed variables configure serve: its push is taken, the purchase made at its controls is delivered and acknowledged")
    func rehearsal() async throws {
        let binary = try Machine.requireBinary()
        let setup = try await ServeCrashTests.Setup.make(.sqlite)
        let servePort = try LoopbackPort.free()
        let simulator = try Spawned(
            binary,
            [
                "play-simulator", "--port", "0", "--state", setup.folder + "/play",
                "--notify-url", "http://127.0.0.1:\(servePort)/google/notifications",
            ], output: .pipe)
        defer { simulator.terminate() }
        let printed = await simulator.read(until: "Ctrl-C stops it.")
        // The variables as a shell would read the printed `export` lines.
        var environment: [String: String] = [:]
        for word in printed.split(whereSeparator: \.isWhitespace) where word.hasPrefix("IAPDESK_GOOGLE_PLAY_") {
            let parts = word.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { environment[String(parts[0])] = String(parts[1]) }
        }
        #expect(
            Set(environment.keys) == [
                "IAPDESK_GOOGLE_PLAY_SIMULATOR", "IAPDESK_GOOGLE_PLAY_PACKAGE_NAMES", "IAPDESK_GOOGLE_PLAY_SERVICE_ACCOUNT_KEY_FILE",
                "IAPDESK_GOOGLE_PLAY_PUSH_AUDIENCE", "IAPDESK_GOOGLE_PLAY_PUSH_SERVICE_ACCOUNT_EMAIL",
            ], "\(printed)")
        let base = try #require(environment["IAPDESK_GOOGLE_PLAY_SIMULATOR"])
        let keyFile = try #require(environment["IAPDESK_GOOGLE_PLAY_SERVICE_ACCOUNT_KEY_FILE"])
        let mode = try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the service account's key file is the owner's only")
        #expect(!printed.contains("PRIVATE KEY"), "the key is written to its file, never printed")

        let serve = try await ServeProcess.start(
            binary, config: setup.config, tokens: setup.tokens, arguments: ["--listen", "127.0.0.1:\(servePort)"], environment: environment)
        do {
            try await Self.purchaseThrough(serve, simulator: base)
        } catch {
            await serve.kill9()
            throw error
        }
        await serve.kill9()
        let store = try await setup.open()
        let pushes = try await store.notifications.list(limit: 100).compactMap(\.facts.uuid).filter { $0.hasPrefix("play:") }
        #expect(pushes.count == 1, "the simulator's push about the purchase reached serve and was stored: \(pushes)")
        await store.close()
        await setup.tearDown()
    }

    /// A player buys at the simulator's controls; the game server submits the token.
    static func purchaseThrough(_ serve: ServeProcess, simulator base: String) async throws {
        let bought = try #require(
            await LoopbackHTTP.call(.POST, base + "/control/purchase", json: #"{"productId":"coins_60","account":"player-1"}"#)?.body)
        let token = try #require(bought["token"] as? String)
        let placed = await serve.call(
            .POST, "/v1/orders", json: #"{"order_id":"rehearsal-1","account_id":"player-1","product_id":"coins_60"}"#, token: ServeCrashTests.token)
        #expect(placed?.status == 201)
        let submitted = await serve.call(
            .POST, "/v1/orders/rehearsal-1/receipts?wait=10",
            json: #"{"google_play":{"package_name":"\#(DemoCatalogue.bundleId)","purchase_token":"\#(token)"}}"#, token: ServeCrashTests.token)
        #expect(submitted?.status == 200 || submitted?.status == 202, "\(String(describing: submitted))")
        #expect(
            try await eventually(within: 30) {
                await serve.call(.GET, "/v1/orders/rehearsal-1", json: nil, token: ServeCrashTests.token)?.body["state"] as? String == "delivered"
            })
        #expect(
            try await eventually(within: 30) {
                await LoopbackHTTP.call(.GET, base + "/control/purchase?token=\(token)")?.body["acknowledged"] as? Bool == true
            }, "acknowledged at the simulated Google")
    }
}
