import CNcurses
import Foundation

/// A program running on a pseudo-terminal of a given size: what a terminal emulator over
/// SSH gives the console. For benchmarks that time the real binary from key to frame and
/// count the bytes it sends.
public final class PseudoTerminal {
    public let pid: pid_t
    private let master: Int32

    public enum Failure: Error, CustomStringConvertible {
        case cannotOpen(String)
        public var description: String {
            switch self {
            case .cannotOpen(let why): "cannot run on a pseudo-terminal: \(why)"
            }
        }
    }

    /// Starts `program` with `arguments` on a new `rows`×`cols` pseudo-terminal.
    public init(program: String, arguments: [String], environment: [String: String], rows: Int = 24, cols: Int = 80) throws {
        master = posix_openpt(O_RDWR | O_NOCTTY)
        guard master >= 0, grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master) else {
            throw Failure.cannotOpen("posix_openpt failed (errno \(errno))")
        }
        let slave = String(cString: name)
        let slaveFD = open(slave, O_RDWR | O_NOCTTY)
        guard slaveFD >= 0 else { throw Failure.cannotOpen("cannot open \(slave)") }
        defer { close(slaveFD) }
        _ = iapdesk_set_winsize(slaveFD, UInt16(rows), UInt16(cols))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in Int32(0)...2 { posix_spawn_file_actions_adddup2(&actions, slaveFD, fd) }
        posix_spawn_file_actions_addclose(&actions, master)

        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, program, &actions, nil, argv, envp)
        guard spawned == 0 else { throw Failure.cannotOpen("cannot start \(program): errno \(spawned)") }
        pid = child
    }

    /// Sends keys as a terminal would (bytes: `"j"`, `"\r"`, `"\u{1B}"`).
    public func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Reads what the program writes until it has been quiet for `quiet` after the first
    /// byte, or until `timeout`. Returns the bytes and when the last one arrived.
    public func readBurst(quiet: Duration = .milliseconds(3), timeout: Duration = .seconds(5)) -> (bytes: [UInt8], lastByteAt: ContinuousClock.Instant?) {
        var collected: [UInt8] = []
        var last: ContinuousClock.Instant?
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while ContinuousClock.now < deadline {
            let wait = last == nil ? deadline - ContinuousClock.now : quiet
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(max(1, wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000)))
            if ready <= 0 {
                if last != nil { break }
                continue
            }
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            collected += buffer[0..<count]
            last = ContinuousClock.now
        }
        return (collected, last)
    }

    /// Reads until `marker` has appeared in the output (or `timeout`), then until quiet.
    public func readFrame(until marker: String, timeout: Duration = .seconds(30)) -> (bytes: [UInt8], lastByteAt: ContinuousClock.Instant?) {
        var all: [UInt8] = []
        var last: ContinuousClock.Instant?
        let deadline = ContinuousClock.now + timeout
        let needle = Array(marker.utf8)
        while ContinuousClock.now < deadline {
            let burst = readBurst(quiet: .milliseconds(3), timeout: deadline - ContinuousClock.now)
            all += burst.bytes
            if let at = burst.lastByteAt { last = at }
            if all.count >= needle.count, Self.contains(all, needle) { break }
            if burst.bytes.isEmpty { break }
        }
        return (all, last)
    }

    public static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return needle.isEmpty }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return true }
        }
        return false
    }

    /// The program's resident memory, from /proc, in bytes.
    public var residentBytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kb = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kb * 1024
    }

    /// Waits for the program to end (after it was asked to quit); false if it did not within `timeout`.
    public func waitForExit(timeout: Duration = .seconds(10)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        var status: Int32 = 0
        while ContinuousClock.now < deadline {
            if waitpid(pid, &status, WNOHANG) == pid { return true }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        return false
    }

    deinit { close(master) }
}
