import Foundation
import NIOConcurrencyHelpers

/// A child process the tests start (the `iapdesk` binary, Python, a simulator), with
/// `posix_spawn` and reaped with `waitpid` by this object alone.
///
/// Not Foundation's `Process`: on Linux its `run()` emulates close-on-exec by listing
/// `/proc/self/fd` and copying each entry's whole 256-byte name field, which reads past
/// glibc's 32 KB directory buffer once about 1,360 descriptors are open. The whole suite
/// holds that many (hundreds of tests' stores open at once) and crashed in `run()` once in
/// six full runs. Here the child closes every descriptor above standard error itself
/// (`posix_spawn_file_actions_addclosefrom_np`), so nothing is listed, and no descriptor of
/// this process (a pipe's write end) outlives it in a child started at the same moment.
public final class Spawned: Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// `/dev/null`.
        case null
        /// A file, created or truncated.
        case file(String)
        /// A pipe this object reads (`read(until:timeout:)`); output only.
        case pipe
        /// Wherever standard output goes; standard error only.
        case output
    }

    public let processIdentifier: pid_t
    /// The read end of the output pipe, or -1.
    private let pipe: Int32
    /// The exit status once reaped, as a shell gives it (128 + the signal for a killed one).
    private let status = NIOLockedValueBox<Int32?>(nil)

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts `executable` with `arguments`. `environment` replaces this process's when given;
    /// `directory` is where it starts.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil, input: String? = nil,
        output: Stream = .null, errors: Stream = .null
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input ?? "/dev/null", O_RDONLY, 0)
        var ends: [Int32] = [-1, -1]
        for (fd, stream) in [(Int32(1), output), (Int32(2), errors)] {
            switch stream {
            case .output where fd == 2: posix_spawn_file_actions_adddup2(&actions, 1, 2)
            case .null, .output: posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
            case .file(let path): posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .pipe:
                guard ends[0] < 0, Glibc.pipe(&ends) == 0 else { throw Failure(description: "cannot make a pipe for \(executable)") }
                for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
                posix_spawn_file_actions_adddup2(&actions, ends[1], fd)
            }
        }
        if let directory { try Self.extra.changeDirectory(&actions, directory) }
        Self.extra.closeAboveStandardError(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, as Foundation gave it: a terminal's Ctrl-C stops the tests
        // only, and the tests end their children themselves.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] =
            (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        if ends[1] >= 0 { close(ends[1]) }
        guard spawned == 0 else {
            if ends[0] >= 0 { close(ends[0]) }
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        processIdentifier = pid
        pipe = ends[0]
    }

    deinit {
        if pipe >= 0 { close(pipe) }
        _ = isRunning  // reaps it if it has ended, so no zombie stays behind
    }

    /// True until the child has exited (it is reaped on the first call that sees it ended).
    public var isRunning: Bool {
        status.withLockedValue { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            switch waitpid(processIdentifier, &raw, WNOHANG) {
            case 0: return true
            case processIdentifier:
                // WIFEXITED / WEXITSTATUS / WTERMSIG, spelled out: the C macros are not imported.
                status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            default: status = -1  // not our child any more: nothing to wait for
            }
            return false
        }
    }

    /// The exit status as a shell gives it (128 + the signal for a killed one); -1 while it runs.
    public var exitStatus: Int32 { isRunning ? -1 : status.withLockedValue { $0 ?? -1 } }

    /// SIGTERM.
    public func terminate() { kill(processIdentifier, SIGTERM) }

    /// Waits for the child to exit without holding a thread: tests run on a concurrency pool
    /// of one thread a core, and a thread slept in a test is one no other test can run on.
    public func exited() async {
        while isRunning { try? await Task.sleep(for: .milliseconds(10)) }
    }

    /// Waits for the child to exit, blocking this thread (for synchronous callers only).
    public func waitForExit() {
        while isRunning { usleep(10_000) }
    }

    /// Reads the output pipe until `marker` has appeared, the child closed it, or `timeout`
    /// passed, on a thread of its own (a blocking read on the concurrency pool's two threads
    /// would stall every other test meanwhile). What was read, whole.
    public func read(until marker: String, timeout: Duration = .seconds(30)) async -> String {
        guard pipe >= 0 else { return "" }
        let fd = pipe
        return await OffPool.run { () -> String in
            var text: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            let deadline = ContinuousClock.now + timeout
            let needle = Array(marker.utf8)
            while ContinuousClock.now < deadline, !text.contains(needle) {
                var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, 100) >= 0 || errno == EINTR else { break }
                guard ready.revents != 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                text += buffer[0..<count]
            }
            return String(decoding: text, as: UTF8.self)
        }
    }

    /// glibc's spawn actions that Swift does not import (they need `_GNU_SOURCE`), found at
    /// run time: glibc 2.34 and later have both.
    private struct Extra: Sendable {
        typealias Action = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        typealias PathAction = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
        let closeFrom: Action?
        let chdir: PathAction?

        init() {
            let handle = dlopen(nil, RTLD_NOW)
            closeFrom = dlsym(handle, "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: Action.self) }
            chdir = dlsym(handle, "posix_spawn_file_actions_addchdir_np").map { unsafeBitCast($0, to: PathAction.self) }
        }

        func closeAboveStandardError(_ actions: inout posix_spawn_file_actions_t) { _ = closeFrom?(&actions, 3) }

        func changeDirectory(_ actions: inout posix_spawn_file_actions_t, _ directory: String) throws {
            guard let chdir, chdir(&actions, directory) == 0 else { throw Failure(description: "cannot start a child in \(directory)") }
        }
    }

    private static let extra = Extra()
}
