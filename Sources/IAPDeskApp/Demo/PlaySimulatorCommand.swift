import ArgumentParser
import Foundation
import GooglePlaySimulator
import IAPDeskCLI
import SimulatorFaults
import SyntheticData

/// `iapdesk play-simulator`: the Google Play stand-in on loopback, for rehearsing against by
/// hand. It writes the service account's JSON key file iapdesk signs in with into `--state`
/// and prints the environment that points `serve` at it.
struct PlaySimulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play-simulator",
        abstract: "Run the Google Play simulator on loopback (OAuth, androidpublisher, voided purchases, Pub/Sub pushes, test controls).")

    @Option(help: "Port (0 picks a free one).") var port: Int = 9091
    @Option(help: "Address to listen on; keep it loopback.") var host: String = "127.0.0.1"
    @Option(help: "The apps' package names, comma-separated.") var packageNames: String = DemoCatalogue.bundleId
    @Option(help: "Faults: none, slow, flaky, storm, down, or items like latency=0.5,http503:0.1,timeout:0.05.")
    var faults: String = "none"
    @Option(help: "Folder for the service account's key file (default: a new temp folder).") var state: String?
    @Option(help: "Where real-time developer notifications are pushed, e.g. http://127.0.0.1:8080/google/notifications.")
    var notifyURL: String?
    @Option(help: "The push subscription's audience (default: the push URL, as Pub/Sub's is).") var audience: String?

    func run() async throws {
        let profile: FaultProfile
        do { profile = try FaultProfile.parse(faults) } catch { throw ValidationError("\(error)") }
        let packages = packageNames.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !packages.isEmpty else { throw ValidationError("--package-names names at least one package") }
        if let notifyURL {
            guard let parsed = URL(string: notifyURL), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil else {
                throw ValidationError("\(notifyURL) is not an http(s) URL")
            }
        }
        let simulator = try GooglePlaySimulator(packageNames: packages, faults: profile)
        let server = try await PlaySimulatorServer.start(simulator, host: host, port: port)
        let folder = state ?? FileManager.default.temporaryDirectory.appendingPathComponent("iapdesk-play-simulator-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let keyFile = folder + "/service-account.json"
        let key = try JSONSerialization.data(withJSONObject: simulator.keys.serviceAccountFile(tokenURI: server.tokenURI), options: [.sortedKeys])
        try OwnerOnlyFile.write(String(decoding: key, as: UTF8.self), to: keyFile)
        let audience = self.audience ?? notifyURL ?? "http://127.0.0.1:8080/google/notifications"
        await simulator.notifications.configure(url: notifyURL, audience: audience)
        print(
            """
            Google Play simulator on \(server.baseURL) (packages \(packages.joined(separator: ", ")), faults \(profile))
              service account: \(keyFile) (\(simulator.keys.serviceAccountEmail))
              pushes:          \(notifyURL ?? "nothing (--notify-url)") as \(simulator.keys.pushServiceAccountEmail), audience \(audience)
              controls:        POST \(server.baseURL)/control/purchase {"productId":"coins_60","account":"player-1"}
                               (answers with the purchase token and Google's order id)
                               GET  \(server.baseURL)/control (every control)

            Point iapdesk serve at it:
              export IAPDESK_GOOGLE_PLAY_SIMULATOR=\(server.baseURL) IAPDESK_GOOGLE_PLAY_PACKAGE_NAMES=\(packages.joined(separator: ",")) \\
                     IAPDESK_GOOGLE_PLAY_SERVICE_ACCOUNT_KEY_FILE=\(keyFile) \\
                     IAPDESK_GOOGLE_PLAY_PUSH_AUDIENCE=\(audience) \\
                     IAPDESK_GOOGLE_PLAY_PUSH_SERVICE_ACCOUNT_EMAIL=\(simulator.keys.pushServiceAccountEmail)

            Ctrl-C stops it.
            """)
        fflush(nil)  // the instructions must show even when stdout is a file or a pipe
        try await server.wait()
    }
}
