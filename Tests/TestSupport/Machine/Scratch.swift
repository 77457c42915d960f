import Foundation

/// Where tests put their files (stores, configuration, certificates, sockets): one folder
/// per test process in the temp directory, removed when the process exits. A run killed
/// before that leaves its folder behind; the next run removes folders whose process is gone.
public enum Scratch {
    /// A path in this process's folder; callers make `name` unique (a UUID) as before.
    public static func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

    private static let prefix = "iapdesk-tests-"

    private static let folder: URL = {
        let temp = FileManager.default.temporaryDirectory
        removeAbandoned(in: temp)
        let folder = temp.appendingPathComponent("\(prefix)\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: Scratch.folder) }
        return folder
    }()

    /// Folders of test processes that no longer run (`kill -0` finds no such process).
    private static func removeAbandoned(in temp: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temp.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), kill(pid, 0) == -1, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: temp.appendingPathComponent(name))
        }
    }
}
