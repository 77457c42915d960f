import Foundation

/// A file only its owner may read (mode 0600): client tokens, keys, shared secrets, the
/// configuration `init` writes.
package enum OwnerOnlyFile {
    package static func write(_ content: String, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(content.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw CLIError("cannot write \(path)")
        }
    }
}
