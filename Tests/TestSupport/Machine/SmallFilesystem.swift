import Foundation
import Testing

/// A size-limited tmpfs of the test's own, for filling a disk up under a store: mounting
/// needs root (sessions and CI here run as root). Unmounted by `unmount()`, and by a
/// watchdog when the test process ends, however it ends.
public struct SmallFilesystem: Sendable {
    public let path: String

    /// Whether a tmpfs can be mounted here (tried once, on a throwaway mount point).
    public static let available: Bool = {
        guard getuid() == 0, let probe = try? mount(kilobytes: 64) else { return false }
        probe.unmount()
        return true
    }()

    public static func mount(kilobytes: Int) throws -> SmallFilesystem {
        let path = Scratch.url("iapdesk-small-fs-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try PostgresServer.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0700", "tmpfs", path])
        try Machine.whenTestsEnd("umount -l \(path) >/dev/null 2>&1; rmdir \(path)")
        return SmallFilesystem(path: path)
    }

    /// Fills what is free but `leaving` bytes with a file of its own; `free()` removes it.
    public func fill(leaving bytes: Int) throws {
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else { throw Machine.Missing(what: "statvfs \(path)") }
        let free = Int(stats.f_bavail) * Int(stats.f_frsize)
        let size = max(0, free - bytes)
        // Allocated, not sparse: a tmpfs counts only the pages a file holds.
        let descriptor = open(path + "/filler", O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw Machine.Missing(what: "a filler file in \(path)") }
        defer { close(descriptor) }
        let chunk = [UInt8](repeating: 0xA5, count: 64 * 1024)
        var written = 0
        while written < size {
            let wrote = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, min(chunk.count, size - written)) }
            guard wrote > 0 else { break }  // full already
            written += wrote
        }
    }

    /// Gives the filler's space back.
    public func free() {
        try? FileManager.default.removeItem(atPath: path + "/filler")
    }

    public func unmount() {
        _ = try? PostgresServer.run("/bin/umount", ["-l", path])
        try? FileManager.default.removeItem(atPath: path)
    }
}

extension Trait where Self == ConditionTrait {
    public static var needsSmallFilesystem: Self { .needs("mounting a tmpfs (root)") { SmallFilesystem.available } }
}
