import Foundation
import Testing

/// An ext4 filesystem on a loop device, mounted `errors=remount-ro`, that can be made to
/// fail: `fail()` triggers a filesystem error, and the kernel turns it read-only under the
/// open files, as it does a real disk that reports errors. Needs root, `mkfs.ext4` and a
/// free loop device. Unmounted and deleted by `unmount()`, and by a watchdog when the test
/// process ends, however it ends.
public struct FailingFilesystem: Sendable {
    public let path: String
    let image: String

    /// Whether it can be done here (tried once, with a throwaway filesystem).
    public static let available: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/mkfs.ext4"), let probe = try? mount() else { return false }
        defer { probe.unmount() }
        return probe.errorTrigger != nil
    }()

    public static func mount(megabytes: Int = 32) throws -> FailingFilesystem {
        let name = "iapdesk-failing-fs-\(UUID().uuidString.prefix(8))"
        let path = Scratch.url(name).path
        let image = Scratch.url(name + ".img").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try PostgresServer.run("/usr/bin/truncate", ["-s", "\(megabytes)M", image])
        try PostgresServer.run("/usr/sbin/mkfs.ext4", ["-q", "-F", image])
        try PostgresServer.run("/bin/mount", ["-o", "loop,errors=remount-ro", image, path])
        try Machine.whenTestsEnd("umount -l \(path) >/dev/null 2>&1; rmdir \(path); rm -f \(image)")
        return FailingFilesystem(path: path, image: image)
    }

    /// The kernel's knob for this filesystem's device (`/sys/fs/ext4/loopN/trigger_fs_error`).
    var errorTrigger: String? {
        guard let mounts = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8),
            let line = mounts.split(separator: "\n").first(where: { $0.split(separator: " ").dropFirst().first.map(String.init) == path }),
            let device = line.split(separator: " ").first?.split(separator: "/").last
        else { return nil }
        let knob = "/sys/fs/ext4/\(device)/trigger_fs_error"
        return FileManager.default.fileExists(atPath: knob) ? knob : nil
    }

    /// Makes the filesystem fail: from now on it is read-only, open files included.
    public func fail() throws {
        guard let knob = errorTrigger else { throw Machine.Missing(what: "an ext4 error trigger for \(path)") }
        try "1".write(toFile: knob, atomically: false, encoding: .utf8)
    }

    /// Unmounts and mounts it again (read-write, as after a repair), so what was written
    /// before the failure can be read with a store of its own.
    public func remount() throws {
        try PostgresServer.run("/bin/umount", [path])
        try PostgresServer.run("/bin/mount", ["-o", "loop", image, path])
    }

    public func unmount() {
        _ = try? PostgresServer.run("/bin/umount", ["-l", path])
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.removeItem(atPath: image)
    }
}

extension Trait where Self == ConditionTrait {
    public static var needsFailingFilesystem: Self {
        .needs("an ext4 loop mount whose errors can be triggered (root, mkfs.ext4, a loop device)") { FailingFilesystem.available }
    }
}
