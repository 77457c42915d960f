import ArgumentParser
import Foundation
import OrderDomain
import OrderStore

/// Latency samples and their percentiles, in milliseconds.
struct Samples {
    private(set) var values: [Double] = []

    mutating func record(_ milliseconds: Double) { values.append(milliseconds) }

    mutating func append(_ other: Samples) { values += other.values }

    mutating func time<T>(_ body: () async throws -> T) async rethrows -> T {
        let start = ContinuousClock.now
        let result = try await body()
        values.append((ContinuousClock.now - start).milliseconds)
        return result
    }

    func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
    }

    var p50: Double { percentile(0.50) }
    var p99: Double { percentile(0.99) }

    /// The load clients' samples and failure counts, as one.
    static func merged(_ clients: inout TaskGroup<(Samples, Int)>) async -> (samples: Samples, failures: Int) {
        var all = Samples()
        var failures = 0
        for await (samples, failed) in clients {
            all.values += samples.values
            failures += failed
        }
        return (all, failures)
    }
}

/// Median of `count` timed runs of `body`, in microseconds, after a warm-up run (the
/// per-item decoding figures).
func medianMicroseconds(_ count: Int, _ body: () async throws -> Void) async throws -> Double {
    try await body()
    var samples: [Double] = []
    samples.reserveCapacity(count)
    for _ in 0..<count {
        let start = ContinuousClock.now
        try await body()
        samples.append((ContinuousClock.now - start).milliseconds * 1000)
    }
    samples.sort()
    return samples[samples.count / 2]
}

extension Duration {
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}

/// One measured figure: a name with its unit, the value, and the budget it answers to.
struct Figure {
    var key: String
    var label: String
    var value: Double
    var budget: Double?

    var verdict: String {
        guard let budget else { return "" }
        return value <= budget ? "ok (≤ \(format(budget)))" : "MISS (> \(format(budget)))"
    }
}

func format(_ value: Double) -> String {
    value >= 100 ? String(format: "%.0f", value) : value >= 1 ? String(format: "%.2f", value) : String(format: "%.3f", value)
}

func report(_ figures: [Figure], json: Bool, context: [String: String]) {
    if json {
        var object: [String: Any] = context
        for figure in figures { object[figure.key] = (figure.value * 1000).rounded() / 1000 }
        if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), let text = String(data: data, encoding: .utf8) {
            print(text)
        }
        return
    }
    for (key, value) in context.sorted(by: { $0.key < $1.key }) { print("\(key): \(value)") }
    let width = figures.map(\.label.count).max() ?? 0
    for figure in figures {
        print(
            figure.label.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + format(figure.value).padding(toLength: 10, withPad: " ", startingAt: 0)
                + figure.verdict)
    }
}

/// `--backend sqlite` (a fresh temporary file) or `--backend postgres --db URL`: the
/// options every server-side benchmark takes.
struct BenchBackend: ParsableArguments {
    @Option(help: "sqlite (a fresh temporary file) or postgres (then --db names the database).") var backend: String = "sqlite"
    @Option(help: "postgres://… for --backend postgres.") var db: String?

    func location(name: String) throws -> StoreLocation {
        switch backend {
        case "sqlite":
            return .sqlite(path: FileManager.default.temporaryDirectory.appendingPathComponent("iapdesk-bench-\(name)-\(UUID().uuidString).sqlite").path)
        case "postgres":
            guard let db else { throw ValidationError("--backend postgres needs --db postgres://…") }
            return .postgres(url: db)
        default: throw ValidationError("--backend is sqlite or postgres")
        }
    }

    static func removeIfTemporary(_ location: StoreLocation) {
        guard case .sqlite(let path) = location else { return }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
