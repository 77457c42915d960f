import Foundation

/// Runs a program to its end with its input and output in files, never pipes.
///
/// Pipes deadlocked the suite: a child spawned at the same moment by another test (a
/// watchdog shell that lives as long as the test process, a PostgreSQL server) inherits the
/// pipe's write end, so reading to end-of-file, or a child reading its stdin to the end,
/// waits forever. With files there is no end-of-file to wait for: the run ends when the
/// program exits, found by polling, so no thread of the concurrency pool is blocked either.
public enum ChildProcess {
    public struct Finished: Sendable {
        public var status: Int32
        /// Standard output, and standard error interleaved as written unless kept apart.
        public var output: String
        /// Standard error, when `errorsApart`; empty otherwise.
        public var errors: String = ""
    }

    public struct TimedOut: Error, CustomStringConvertible {
        public var description: String
    }

    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, input: Data = Data(),
        in directory: URL? = nil, timeout: Duration = .seconds(300), errorsApart: Bool = false
    ) async throws -> Finished {
        let folder = Scratch.url("iapdesk-child-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputFile = folder.appendingPathComponent("stdin"), outputFile = folder.appendingPathComponent("stdout")
        let errorFile = folder.appendingPathComponent("stderr")
        try input.write(to: inputFile)
        FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let stdin = try FileHandle(forReadingFrom: inputFile), stdout = try FileHandle(forWritingTo: outputFile)
        let stderr = errorsApart ? try FileHandle(forWritingTo: errorFile) : stdout
        defer {
            try? stdin.close()
            try? stdout.close()
            try? stderr.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try ProcessLaunch.run(process)
        let deadline = ContinuousClock.now + timeout
        var exitedWith: Int32?
        while process.isRunning, exitedWith == nil {
            guard ContinuousClock.now < deadline else {
                // What it was asked, what it said so far and where its threads wait: a hang
                // under load is found from this.
                let said = ((try? String(contentsOf: outputFile, encoding: .utf8)) ?? "").suffix(2000)
                let waits = ProcessInspection.threads(of: process.processIdentifier)
                process.terminate()
                throw TimedOut(
                    description:
                        "\(executable) \(arguments.joined(separator: " ")) still running after \(timeout); its output so far: \(said)\nits threads: \(waits)"
                )
            }
            try await Task.sleep(for: .milliseconds(20))
            exitedWith = ProcessInspection.zombieStatus(process.processIdentifier)
        }
        let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        return Finished(status: exitedWith ?? process.terminationStatus, output: output, errors: errors)
    }
}

/// What the kernel says about a child, for when Foundation does not.
///
/// Seen under the whole suite's load: a command printed its last line and exited (or was
/// killed with SIGKILL), and `Process.isRunning` stayed true for good. A child that has
/// exited and was not reaped is a zombie in `/proc`, whose `stat` carries its exit status.
/// It is read there and never reaped here: Foundation keeps its own table of the children
/// it started, and while this code reaped such zombies `Process.run()` crashed once, most
/// likely on a reaped pid the kernel had given to the next child.
enum ProcessInspection {
    /// The exit status of `pid` (as a shell gives it: 128 + the signal for a killed one) if
    /// it is a zombie; nil while it runs.
    static func zombieStatus(_ pid: Int32) -> Int32? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
        // After the command's ")": field 3 is the state, field 52 the status waitpid reports.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.first == "Z", fields.count >= 50, let status = Int32(fields[49].trimmingCharacters(in: .whitespacesAndNewlines)) else {
            return nil
        }
        // A process's first thread is a zombie while its other threads still exit, and its
        // files (a SQLite lock among them) close with the last one: wait for that one too.
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        guard threads.count <= 1 else { return nil }
        // WIFEXITED / WEXITSTATUS, spelled out: the C macros are not imported into Swift.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// The process's state letter (R, S, D, Z…) from `/proc/<pid>/stat`.
    static func state(of pid: Int32) -> Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: close)...].first(where: { $0 != " " })
    }

    /// Each thread's name, state and kernel wait channel, for a time-out's message.
    static func threads(of pid: Int32) -> String {
        let folder = "/proc/\(pid)/task"
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return tasks.sorted().map { task in
            let read = { (name: String) in
                ((try? String(contentsOfFile: "\(folder)/\(task)/\(name)", encoding: .utf8)) ?? "?").trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let state = state(of: Int32(task) ?? -1).map(String.init) ?? "?"
            return "\(read("comm"))[\(state)] \(read("wchan"))"
        }.joined(separator: ", ")
    }
}

extension Process {
    /// Waits for the process to exit by polling. Foundation's `waitUntilExit` on Linux spins
    /// the calling thread's run loop, which a thread of the concurrency pool does not run: it
    /// can miss the exit and block that thread for good, and with two cores two such waits
    /// starve every test of the run.
    public func waitForExit() {
        var missed = 0
        while isRunning, missed < Self.missedExitPolls {
            missed = ProcessInspection.zombieStatus(processIdentifier) == nil ? 0 : missed + 1
            usleep(10_000)
        }
    }

    /// Waits for the process to exit without holding a thread: tests run on a concurrency
    /// pool of one thread a core, and a thread slept in a test is one no store transaction of
    /// any other test can run on (their row locks then outlive every deadline).
    ///
    /// Foundation can miss a child's exit (seen after a `kill -9`: the test waited on a
    /// zombie for good), so a zombie the kernel has reported for 5 s ends the wait too.
    public func exited() async {
        var missed = 0
        while isRunning, missed < Self.missedExitPolls {
            missed = ProcessInspection.zombieStatus(processIdentifier) == nil ? 0 : missed + 1
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Polls, 10 ms apart, of a zombie Foundation still calls running before a wait gives up
    /// on Foundation: it normally notices within milliseconds.
    static let missedExitPolls = 500

    /// The exit status once a wait above returned: Foundation's, or the kernel's when
    /// Foundation missed the exit (its `terminationStatus` traps while it thinks it runs).
    public var exitStatus: Int32 {
        isRunning ? ProcessInspection.zombieStatus(processIdentifier) ?? -1 : terminationStatus
    }
}
