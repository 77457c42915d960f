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
        let inputFile = folder.appendingPathComponent("stdin").path, outputFile = folder.appendingPathComponent("stdout").path
        let errorFile = folder.appendingPathComponent("stderr").path
        try input.write(to: URL(fileURLWithPath: inputFile))
        let child = try Spawned(
            executable, arguments, environment: environment, directory: directory?.path, input: inputFile, output: .file(outputFile),
            errors: errorsApart ? .file(errorFile) : .output)
        let deadline = ContinuousClock.now + timeout
        while child.isRunning {
            guard ContinuousClock.now < deadline else {
                // What it was asked, what it said so far and where its threads wait: a hang
                // under load is found from this.
                let said = ((try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? "").suffix(2000)
                let waits = ProcessInspection.threads(of: child.processIdentifier)
                kill(child.processIdentifier, SIGKILL)
                await child.exited()
                throw TimedOut(
                    description:
                        "\(executable) \(arguments.joined(separator: " ")) still running after \(timeout); its output so far: \(said)\nits threads: \(waits)"
                )
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let output = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
        let errors = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
        return Finished(status: child.exitStatus, output: output, errors: errors)
    }
}

/// What the kernel says about a child's threads, for a time-out's message.
enum ProcessInspection {
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
