import ArgumentParser
import Foundation
import OrderDomain
import OrderStore
import SyntheticData
import Terminal

/// `iapdesk-bench console`: the Performance article's console budgets, measured on the real `iapdesk`
/// binary (release, beside this one) running `iapdesk console --readonly` on an 80×24
/// pseudo-terminal over a store of `--orders` orders:
/// - start to first frame: spawn to the last byte of the first full frame;
/// - key to frame: a key written to the terminal to the last byte of the frame it causes
///   (moving down, filtering by an order id, opening and leaving an order);
/// - bytes sent to scroll the order table by one row;
/// - resident memory after all of that.
struct ConsoleBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "console", abstract: "Measure the console budgets on a pseudo-terminal (release build).")

    @Option(help: "Orders to seed.") var orders: Int = 1_000_000
    @Option(help: "A store to use (seeded first unless --reuse): a SQLite path (default: a temp file) or a postgres:// URL of an empty database.") var db:
        String?
    @Flag(help: "Reuse an already seeded store at --db.") var reuse = false
    @Option(help: "The share of seeded orders paid at Google Play (0 to 1); the budgets are stated with both stores mixed.") var playShare: Double = 0.5
    @Option(help: "Key presses per key-to-frame figure.") var samples: Int = 300
    @Flag(help: "Print one JSON object instead of a table.") var json = false

    func run() async throws {
        guard (0...1).contains(playShare) else { throw ValidationError("--play-share is between 0 and 1") }
        let path = db ?? NSTemporaryDirectory() + "iapdesk-bench-console-\(UUID().uuidString.prefix(8)).sqlite"
        let location = StoreLocation(path)
        let settings = StoreSettings(bundleId: DemoCatalogue.bundleId)
        if !reuse {
            let store = try await OrderStore.open(location, settings: settings)
            var plan = SyntheticStore(orders: orders, seed: 1)
            plan.playShare = playShare
            try await plan.write(into: store)
            await store.close()
        }
        // Ids to filter by and open (untimed), from random orders: as many as key presses, so
        // p99 is not simply the slowest of a few opens.
        let store = try await OrderStore.open(location, settings: settings)
        let total = Int(try await store.reports.counts().total)
        var ids: [String] = []
        while ids.count < samples {
            let id = "ord_" + String(format: "%09d", Int.random(in: 1...max(total, 1)))
            if try await store.orders.find(id) != nil { ids.append(id) }
        }
        await store.close()

        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("iapdesk").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw ValidationError("no iapdesk beside this benchmark (\(binary)): run `swift build -c release` first")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment["LANG"] = "C.UTF-8"
        environment.removeValue(forKey: "NO_COLOR")

        let start = ContinuousClock.now
        let terminal = try PseudoTerminal(program: binary, arguments: ["console", "--db", path, "--readonly"], environment: environment)
        let first = terminal.readFrame(until: "quit", timeout: .seconds(60))
        guard let firstFrameAt = first.lastByteAt, PseudoTerminal.contains(first.bytes, Array("Orders [".utf8)) else {
            throw ValidationError("the console drew no first frame: \(String(decoding: first.bytes.suffix(400), as: UTF8.self))")
        }
        let firstFrameMs = (firstFrameAt - start).milliseconds

        // Down, over and over: the first rows move the selection, the rest scroll the table.
        var keySamples = Samples(), scrollBytes: [Int] = []
        let visibleRows = 24 - 3 - 2 - 1
        for index in 0..<samples {
            let sent = ContinuousClock.now
            terminal.send("j")
            let frame = terminal.readBurst(timeout: .seconds(2))
            guard let at = frame.lastByteAt else { continue }
            keySamples.record((at - sent).milliseconds)
            if index >= visibleRows { scrollBytes.append(frame.bytes.count) }
        }

        // Filter by an exact id (Enter runs the lookup), then Esc back to all orders.
        var filterSamples = Samples(), openSamples = Samples()
        for id in ids {
            terminal.send("/")
            _ = terminal.readBurst(timeout: .seconds(2))
            terminal.send(id)
            _ = terminal.readBurst(quiet: .milliseconds(20), timeout: .seconds(2))
            let sent = ContinuousClock.now
            terminal.send("\r")
            if let at = terminal.readBurst(timeout: .seconds(2)).lastByteAt { filterSamples.record((at - sent).milliseconds) }
            // Open the order and leave it.
            let opened = ContinuousClock.now
            terminal.send("\r")
            if let at = terminal.readBurst(timeout: .seconds(2)).lastByteAt { openSamples.record((at - opened).milliseconds) }
            terminal.send("\u{1B}")
            _ = terminal.readBurst(quiet: .milliseconds(40), timeout: .seconds(2))  // Esc waits out ncurses' 25 ms delay
            terminal.send("\u{1B}")
            _ = terminal.readBurst(quiet: .milliseconds(40), timeout: .seconds(2))
        }
        let rss = Double(terminal.residentBytes ?? 0) / 1_048_576
        terminal.send("q")
        let exited = terminal.waitForExit()

        let sortedScroll = scrollBytes.sorted()
        let medianScroll = sortedScroll.isEmpty ? .nan : Double(sortedScroll[sortedScroll.count / 2])
        report(
            [
                Figure(key: "first_frame_ms", label: "start to first frame (ms)", value: firstFrameMs, budget: 300),
                Figure(key: "key_down_p99_ms", label: "key to frame, down (ms, p99)", value: keySamples.p99, budget: 16),
                Figure(key: "key_down_p50_ms", label: "key to frame, down (ms, p50)", value: keySamples.p50, budget: nil),
                Figure(key: "filter_id_p99_ms", label: "key to frame, filter by order id (ms, p99)", value: filterSamples.p99, budget: 16),
                Figure(key: "open_detail_p99_ms", label: "key to frame, open an order (ms, p99)", value: openSamples.p99, budget: 16),
                Figure(key: "open_detail_p50_ms", label: "key to frame, open an order (ms, p50)", value: openSamples.p50, budget: nil),
                Figure(key: "open_detail_max_ms", label: "key to frame, open an order (ms, max)", value: openSamples.percentile(1), budget: nil),
                Figure(key: "scroll_row_bytes", label: "bytes to scroll one row (median)", value: medianScroll, budget: 300),
                Figure(key: "scroll_row_bytes_max", label: "bytes to scroll one row (max)", value: Double(sortedScroll.last ?? 0), budget: nil),
                Figure(key: "rss_mb", label: "resident memory (MB)", value: rss, budget: 100),
            ], json: json, context: ["orders": "\(total)", "terminal": "80x24 xterm-256color", "exited_cleanly": "\(exited)", "store": location.description])
    }
}
