import ArgumentParser

/// Benchmarks for the budgets in the Performance article. Run release builds:
/// `swift run -c release iapdesk-bench store --orders 1000000`.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iapdesk-bench", abstract: "Measure iapdesk against its budgets.",
        subcommands: [
            StoreBenchmark.self, DecodeBenchmark.self, FuzzBenchmark.self, ReverifyBenchmark.self, ConsoleBenchmark.self, ServeBenchmark.self, ServeLoad.self,
            EventsBenchmark.self, PipelineBenchmark.self, DemoHostBenchmark.self, NotificationDecodeBenchmark.self,
        ])

    /// Parses and runs, awaiting async subcommands (top-level code picks the sync overloads).
    static func runFromCommandLine() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand { try await asyncCommand.run() } else { try command.run() }
        } catch {
            exit(withError: error)
        }
    }
}

await Bench.runFromCommandLine()
