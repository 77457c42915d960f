import Foundation
import Testing

/// What a test needs from the machine beyond Swift: tools, the built binary, root, the
/// fixtures. A test that needs one carries a `.needs…` trait: where it is missing the test is
/// reported as skipped with the reason. In CI (`CI=true`) nothing is skipped: the test runs
/// and fails on what is missing, because CI must prove everything.
public enum Machine {
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// An executable on PATH (or in the usual system folders).
    public static func executable(_ name: String) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return (path + ["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"])
            .map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The debug `iapdesk` beside the test bundle (`swift build --build-tests` puts it there;
    /// CI does that first).
    public static var iapdeskBinary: String? {
        let folder = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        let candidates = [folder, folder.deletingLastPathComponent(), URL(fileURLWithPath: FileManager.default.currentDirectoryPath + "/.build/debug")]
            .map { $0.appendingPathComponent("iapdesk").path }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The built binary, or a failure naming how to build it.
    public static func requireBinary() throws -> String {
        guard let binary = iapdeskBinary else { throw Missing(what: "the iapdesk binary (run `swift build --build-tests` first)") }
        return binary
    }

    public static var isRoot: Bool { geteuid() == 0 }

    /// `IAPDESK_PYTHON`, the Python of the venv that holds schemathesis (as `.ci/run` makes
    /// it), or `python3`: the first that can import `modules` (`a, b.c`), for the suites that
    /// let a store's own library judge its simulator.
    public static func python(importing modules: String) -> String? {
        var candidates: [String] = []
        if let given = ProcessInfo.processInfo.environment["IAPDESK_PYTHON"] { candidates.append(given) }
        if let schemathesis = executable("schemathesis") {
            candidates.append(URL(fileURLWithPath: schemathesis).deletingLastPathComponent().appendingPathComponent("python3").path)
        }
        if let system = executable("python3") { candidates.append(system) }
        return candidates.first { candidate in
            guard FileManager.default.isExecutableFile(atPath: candidate) else { return false }
            guard let child = try? Spawned(candidate, ["-c", "import \(modules)"]) else { return false }
            child.waitForExit()
            return child.exitStatus == 0
        }
    }

    /// Runs a shell command line (as this process's user); its exit status and its output with stderr.
    public static func shell(_ command: String) -> (status: Int32, output: String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("iapdesk-sh-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let status = system("(\(command)\n) > \(output) 2>&1")
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return (status == 0 ? 0 : (status >> 8 == 0 ? 1 : status >> 8), text)
    }

    /// Runs `command` (a shell line) once this test process has ended, however it ends: the
    /// servers, poolers and mounts tests start would outlive a crashed run otherwise.
    public static func whenTestsEnd(_ command: String) throws {
        try PostgresServer.run("/bin/sh", ["-c", "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; \(command)"], wait: false)
    }

    public struct Missing: Error, CustomStringConvertible {
        public let what: String
        public init(what: String) { self.what = what }
        public var description: String { "missing: \(what)" }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test where `available` holds; elsewhere skips it, saying what it needs. In CI
    /// it always runs, and fails on what is missing.
    public static func needs(_ what: String, _ available: @escaping @Sendable () -> Bool) -> Self {
        .enabled(if: Machine.isCI || available(), Comment(rawValue: "needs \(what)"))
    }

    public static var needsFixtures: Self { .needs("../shared/fixtures (or IAPDESK_FIXTURES)") { Fixtures.present } }

    public static var needsBinary: Self { .needs("the iapdesk binary: swift build --build-tests") { Machine.iapdeskBinary != nil } }

    public static var needsPostgres: Self {
        .needs("a PostgreSQL server (apt-get install postgresql, or IAPDESK_TEST_POSTGRES_URL), not left out by IAPDESK_TEST_BACKENDS") {
            Backend.postgres.unavailableReason == nil
        }
    }

    public static var needsTmux: Self {
        .needs("tmux and the iapdesk binary: apt-get install tmux; swift build --build-tests") {
            Machine.iapdeskBinary != nil && Machine.executable("tmux") != nil
        }
    }
}
