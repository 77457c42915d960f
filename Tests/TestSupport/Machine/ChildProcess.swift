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
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                process.terminate()
                // What it was asked and what it said so far: a hang under load is found from this.
                let said = ((try? String(contentsOf: outputFile, encoding: .utf8)) ?? "").suffix(2000)
                throw TimedOut(description: "\(executable) \(arguments.joined(separator: " ")) still running after \(timeout); its output so far: \(said)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        return Finished(status: process.terminationStatus, output: output, errors: errors)
    }
}

extension Process {
    /// Waits for the process to exit by polling. Foundation's `waitUntilExit` on Linux spins
    /// the calling thread's run loop, which a thread of the concurrency pool does not run: it
    /// can miss the exit and block that thread for good, and with two cores two such waits
    /// starve every test of the run.
    public func waitForExit() {
        while isRunning { usleep(10_000) }
    }

    /// Waits for the process to exit without holding a thread: tests run on a concurrency
    /// pool of one thread a core, and a thread slept in a test is one no store transaction of
    /// any other test can run on (their row locks then outlive every deadline).
    public func exited() async {
        while isRunning { try? await Task.sleep(for: .milliseconds(10)) }
    }
}
