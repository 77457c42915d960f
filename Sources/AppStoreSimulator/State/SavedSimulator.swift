import Crypto
import Foundation

/// A simulator's identity (certificate authority, API key, shared secret) and memory (its
/// ledger) kept in a folder, so that a store seeded against it and reopened later meets the
/// same App Store: receipts signed then still verify, purchases made then are still known.
/// The folder holds private keys; its files are readable by the owner only.
public enum SavedSimulator {
    private struct Identity: Codable {
        var bundleId: String
        var sharedSecret: String?
        var authority: CertificateAuthority.Saved
        var issuerId: String
        var keyId: String
        var apiKeyPEM: String
    }

    private static let identityFile = "simulator.json"
    private static let ledgerFile = "ledger.json"

    /// Whether `folder` holds a saved simulator.
    public static func exists(in folder: String) -> Bool {
        FileManager.default.fileExists(atPath: folder + "/" + identityFile)
    }

    /// Saves `simulator`'s identity and ledger into `folder`, replacing what was there.
    public static func save(_ simulator: AppStoreSimulator, in folder: String) async throws {
        let identity = Identity(
            bundleId: simulator.bundleId, sharedSecret: simulator.sharedSecret, authority: try simulator.authority.saved(),
            issuerId: simulator.apiKey.issuerId, keyId: simulator.apiKey.keyId, apiKeyPEM: simulator.apiKey.p8PEM)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try write(try JSONEncoder().encode(identity), to: folder + "/" + identityFile)
        try write(try JSONEncoder().encode(await simulator.ledger.all), to: folder + "/" + ledgerFile)
    }

    /// The simulator saved in `folder`, with its ledger, under `faults`.
    public static func load(from folder: String, faults: FaultProfile = .none) async throws -> AppStoreSimulator {
        let identity = try JSONDecoder().decode(Identity.self, from: try Data(contentsOf: URL(fileURLWithPath: folder + "/" + identityFile)))
        let key = SimulatorAPIKey(
            issuerId: identity.issuerId, keyId: identity.keyId,
            privateKey: try P256.Signing.PrivateKey(pemRepresentation: identity.apiKeyPEM))
        let simulator = try AppStoreSimulator(
            bundleId: identity.bundleId, sharedSecret: identity.sharedSecret, apiKey: key, faults: faults,
            authority: try CertificateAuthority(saved: identity.authority))
        let ledgerURL = URL(fileURLWithPath: folder + "/" + ledgerFile)
        if FileManager.default.fileExists(atPath: ledgerURL.path) {
            await simulator.ledger.adopt(try JSONDecoder().decode([SimulatedPurchase].self, from: try Data(contentsOf: ledgerURL)))
        }
        return simulator
    }

    /// Written whole to a temporary name and renamed, so a crash never leaves half a file.
    private static func write(_ data: Data, to path: String) throws {
        let temporary = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw SimulatorError.cannotSave(path)
        }
        guard rename(temporary, path) == 0 else { throw SimulatorError.cannotSave(path) }
    }
}
