import AppStoreSimulator
import Foundation
import TestSupport
import Testing

/// Apple's official App Store Server Library (Python, PyPI `app-store-server-library`),
/// which no one here wrote, is the judge of the simulator every other test talks to: its
/// API client calls the simulator's Server API with a token as Apple's client makes it,
/// its `SignedDataVerifier` (strict, offline, with the simulator's root, the app's Apple
/// id and the production environment) verifies every signed payload, `ReceiptUtility`
/// reads a minted receipt, and its models parse every answer (`AppleLibrary/oracle.py`).
@Suite(
    "The simulator judged by Apple's App Store Server Library",
    .needs("Python with app-store-server-library (pip install app-store-server-library)") { AppleLibrary.python != nil })
struct AppleLibraryOracleTests {
    @Test("Apple's API client, SignedDataVerifier and ReceiptUtility accept what the simulator serves, signs and mints")
    func appleLibraryAcceptsTheSimulator() async throws {
        let python = try #require(AppleLibrary.python, "a Python with app-store-server-library")
        let simulator = try AppStoreSimulator(bundleId: "com.example.game", sharedSecret: "oracle-secret")
        let server = try await SimulatorServer.start(simulator)

        // Life as Apple sees it: a subscription bought and renewed, a pack bought and refunded.
        let ledger = simulator.ledger
        let month = await ledger.purchase(
            appleId: "oracle@icloud", productId: "vip_month", kind: .autoRenewable, at: Date().addingTimeInterval(-40 * 86_400))
        let renewal = try await simulator.renewAndNotify(originalTransactionId: month.originalTransactionId)
        let pack = await ledger.purchase(appleId: "oracle@icloud", productId: "coins_60", kind: .consumable)
        try await simulator.refundAndNotify(transactionId: pack.transactionId)
        let receipt = try await ledger.receipt(appleId: "oracle@icloud")

        let setup: [String: Any] = [
            "base": server.baseURL, "p8": simulator.apiKey.p8PEM, "keyId": simulator.apiKey.keyId, "issuerId": simulator.apiKey.issuerId,
            "bundleId": simulator.bundleId, "appAppleId": AppStoreSimulator.appAppleId, "rootPEM": try simulator.authority.rootPEM(),
            "subscription": renewal.transactionId, "orderId": pack.appleOrderId, "refunded": pack.transactionId,
            "receipt": receipt, "receiptTransactions": [month.transactionId, renewal.transactionId, pack.transactionId],
        ]
        let checks = try await AppleLibrary.run(python, script: AppleLibrary.script, input: try JSONSerialization.data(withJSONObject: setup))
        await server.stop()
        #expect(checks.count == 7, "every check reported: \(checks)")
        for check in checks {
            #expect(check.ok, "\(check.name): \(check.detail)")
        }
    }
}

/// Finding and running the Python that has Apple's library.
enum AppleLibrary {
    struct Check: Sendable {
        var name: String
        var ok: Bool
        var detail: String
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("AppleLibrary/oracle.py").path

    /// `IAPDESK_PYTHON`, the Python of the venv that holds schemathesis (as `.ci/run` makes
    /// it), or `python3`: the first that can import the library.
    static let python: String? = {
        var candidates: [String] = []
        if let given = ProcessInfo.processInfo.environment["IAPDESK_PYTHON"] { candidates.append(given) }
        if let schemathesis = Machine.executable("schemathesis") {
            candidates.append(URL(fileURLWithPath: schemathesis).deletingLastPathComponent().appendingPathComponent("python3").path)
        }
        if let system = Machine.executable("python3") { candidates.append(system) }
        return candidates.first { candidate in
            guard FileManager.default.isExecutableFile(atPath: candidate) else { return false }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: candidate)
            process.arguments = ["-c", "import appstoreserverlibrary"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return false }
            process.waitUntilExit()
            return process.terminationStatus == 0
        }
    }()

    /// Runs the script with `input` on stdin and reads its checks.
    static func run(_ python: String, script: String, input: Data) async throws -> [Check] {
        let output = try await ChildProcess.run(python, [script], input: input, timeout: .seconds(120)).output
        let lines = output.split(separator: "\n")
        let checks = lines.compactMap { line -> Check? in
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                let name = object["check"] as? String, let ok = object["ok"] as? Bool
            else { return nil }
            return Check(name: name, ok: ok, detail: object["detail"] as? String ?? "")
        }
        guard !checks.isEmpty else { throw Machine.Missing(what: "checks from \(script): \(output.prefix(2000))") }
        return checks
    }
}
