import Foundation
import GooglePlaySimulator
import IAPDeskCLI

/// The demo's Google Play purchases, kept beside its store (`FILE.simulator/google-play.json`)
/// as its App Store's are: a demo store opened again asks a Google that still knows them.
enum SavedPlayLedger {
    static func path(in folder: String) -> String { folder + "/google-play.json" }

    static func save(_ simulator: GooglePlaySimulator, in folder: String) async throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let data = try JSONEncoder().encode(await simulator.ledger.saved())
        try OwnerOnlyFile.write(String(decoding: data, as: UTF8.self), to: path(in: folder))
    }

    /// Restores what `folder` holds into `simulator`; nothing when it holds none.
    static func restore(_ simulator: GooglePlaySimulator, from folder: String) async throws {
        guard let data = FileManager.default.contents(atPath: path(in: folder)) else { return }
        await simulator.ledger.restore(try JSONDecoder().decode(PlayLedger.Saved.self, from: data))
    }
}
