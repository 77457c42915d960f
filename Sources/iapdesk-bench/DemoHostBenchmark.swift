import ArgumentParser
import Foundation
import Terminal

/// `iapdesk-bench demo-host`: the figure of a visitor's first frame within 1 s, measured
/// on the real `iapdesk` binary (release, beside this one). It builds a demo template once
/// (`iapdesk demo --build-template`, timed), then starts `iapdesk demo-session` on an 80×24
/// pseudo-terminal `--visits` times, one after another, as sshd does once a visitor is in:
/// - start to first frame: spawn to the last byte of the first frame showing the orders;
/// - the visitor's console's resident memory once drawn;
/// - `:quit` to the session's end, its copy deleted and its seat free.
/// The SSH handshake itself comes on top (the demo host test prints both on loopback).
struct DemoHostBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "demo-host", abstract: "Measure an SSH demo visitor's first frame (release build).")

    @Option(help: "Orders in the demo template.") var orders: Int = 20_000
    @Option(help: "Visits to time.") var visits: Int = 10
    @Flag(help: "Print one JSON object instead of a table.") var json = false

    func run() async throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("iapdesk").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw ValidationError("no iapdesk beside this benchmark (\(binary)): run `swift build -c release` first")
        }
        let folder = NSTemporaryDirectory() + "iapdesk-bench-demo-host-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (template, sessions) = (folder + "/template", folder + "/sessions")

        let building = ContinuousClock.now
        let build = Process()
        build.executableURL = URL(fileURLWithPath: binary)
        build.arguments = ["demo", "--build-template", template, "--orders", "\(orders)"]
        build.standardOutput = FileHandle.nullDevice
        try build.run()
        build.waitUntilExit()
        guard build.terminationStatus == 0 else { throw ValidationError("iapdesk demo --build-template failed (\(build.terminationStatus))") }
        let buildMs = (ContinuousClock.now - building).milliseconds
        let templateMB = Double(try FileManager.default.attributesOfItem(atPath: template + "/store.sqlite")[.size] as? Int ?? 0) / 1_048_576

        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment["LANG"] = "C.UTF-8"
        var firstFrame = Samples(), quit = Samples(), rss: [Double] = []
        for _ in 0..<visits {
            let start = ContinuousClock.now
            let terminal = try PseudoTerminal(
                program: binary, arguments: ["demo-session", "--template", template, "--sessions", sessions], environment: environment)
            // The footer's first key, drawn last (ncurses writes top to bottom); at 80 columns
            // an admin's footer is cut before "quit".
            let frame = terminal.readFrame(until: "Enter", timeout: .seconds(30))
            guard let at = frame.lastByteAt, PseudoTerminal.contains(frame.bytes, Array("Orders [".utf8)) else {
                throw ValidationError("the visitor's console drew no first frame: \(String(decoding: frame.bytes.suffix(400), as: UTF8.self))")
            }
            firstFrame.record((at - start).milliseconds)
            if let console = Self.child(of: terminal.pid), let kb = Self.residentKB(console) { rss.append(Double(kb) / 1024) }
            let quitting = ContinuousClock.now
            terminal.send(":quit\r")
            guard terminal.waitForExit(timeout: .seconds(30)) else { throw ValidationError("the demo session did not end after :quit") }
            quit.record((ContinuousClock.now - quitting).milliseconds)
            let left = try FileManager.default.contentsOfDirectory(atPath: sessions).filter { !$0.hasSuffix(".lock") }
            guard left.isEmpty else { throw ValidationError("the session left \(left) behind") }
        }
        report(
            [
                Figure(key: "first_frame_p50_ms", label: "session start to first frame (ms, p50)", value: firstFrame.p50, budget: nil),
                Figure(key: "first_frame_max_ms", label: "session start to first frame (ms, max)", value: firstFrame.percentile(1), budget: 1000),
                Figure(key: "console_rss_mb", label: "visitor's console resident memory (MB, max)", value: rss.max() ?? .nan, budget: nil),
                Figure(key: "quit_p50_ms", label: ":quit to copy deleted and seat free (ms, p50)", value: quit.p50, budget: nil),
                Figure(key: "template_build_ms", label: "template build, once (ms)", value: buildMs, budget: nil),
            ], json: json,
            context: [
                "orders": "\(orders)", "visits": "\(visits)", "template_store_mb": String(format: "%.1f", templateMB), "terminal": "80x24 xterm-256color",
            ])
    }

    /// The first child of `pid` (the session's console), from /proc: listed under the
    /// thread that spawned it, which need not be the main one.
    static func child(of pid: pid_t) -> pid_t? {
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        let children = threads.flatMap { thread in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/children", encoding: .utf8)) ?? "").split(separator: " ")
        }
        return children.first.flatMap { pid_t($0) }
    }

    static func residentKB(_ pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
}
