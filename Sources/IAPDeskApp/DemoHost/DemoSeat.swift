import Foundation
import IAPDeskCLI

/// One of a demo host's seats: a lock file per seat in the sessions folder (`.seat-N.lock`)
/// and the folder `N/` holding the visitor's copy of the template. The lock is an `flock`
/// held for the life of the visit by the session and its console (the descriptor is
/// inherited): the kernel releases it however they end, kill -9 included, so a seat is
/// never lost, and a free seat's folder can only be what a killed session left behind.
struct DemoSeat {
    let number: Int
    let folder: String
    private let lock: Int32

    /// The lowest free seat, or nil when all `seats` are taken. Leftovers in free seats are
    /// removed on the way, so that files outlive a killed session only until the next visitor.
    static func take(in sessions: String, seats: Int) throws -> DemoSeat? {
        let manager = FileManager.default
        if !manager.fileExists(atPath: sessions) {
            try manager.createDirectory(atPath: sessions, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        var taken: DemoSeat?
        for number in 0..<seats {
            let path = "\(sessions)/.seat-\(number).lock"
            let lock = open(path, O_CREAT | O_RDWR, 0o600)
            guard lock >= 0 else { throw CLIError("cannot open \(path): \(String(cString: strerror(errno)))") }
            guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
                close(lock)
                continue
            }
            let folder = "\(sessions)/\(number)"
            if manager.fileExists(atPath: folder) { try manager.removeItem(atPath: folder) }
            if taken == nil { taken = DemoSeat(number: number, folder: folder, lock: lock) } else { close(lock) }
        }
        return taken
    }

    /// The visitor's own copy of the template, writable by this account only.
    func furnish(from template: String) throws {
        guard FileManager.default.fileExists(atPath: DemoTemplate.storePath(template)) else {
            throw CLIError("no demo template in \(template): build one with `iapdesk demo --build-template \(template)`")
        }
        // Folder by folder: a copy of the sealed (read-only) folders could not be written into.
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        for name in try manager.subpathsOfDirectory(atPath: template).sorted() {
            var isFolder: ObjCBool = false
            _ = manager.fileExists(atPath: template + "/" + name, isDirectory: &isFolder)
            if isFolder.boolValue {
                try manager.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            } else {
                try manager.copyItem(atPath: template + "/" + name, toPath: folder + "/" + name)
                try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: folder + "/" + name)
            }
        }
    }

    var storePath: String { DemoTemplate.storePath(folder) }

    /// Deletes the visitor's copy and gives the seat back.
    func vacate() {
        try? FileManager.default.removeItem(atPath: folder)
        close(lock)
    }
}
