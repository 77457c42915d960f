import ArgumentParser
import Foundation
import IAPDeskCLI
import OrderDomain
import OrderStore
import SyntheticData

struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed", abstract: "Fill an empty store with deterministic, realistic synthetic orders.")

    @OptionGroup var store: StoreOptions

    @Option(help: "How many orders.") var orders: Int = 10_000
    @Option(help: "Random seed: the same seed gives the same store.") var seed: UInt64 = 1
    @Option(help: "The history's \"now\" in epoch milliseconds (default: the current minute).") var anchor: Int64?
    @Option(help: "The share of orders paid at Google Play, 0 to 1 (the rest at the App Store).") var playShare: Double = 0

    func run() async throws {
        guard orders > 0 else { throw ValidationError("--orders must be positive") }
        guard (0...1).contains(playShare) else { throw ValidationError("--play-share is between 0 and 1") }
        var plan = SyntheticStore(orders: orders, seed: seed, anchor: anchor ?? (Millis.now() / 60_000 * 60_000))
        plan.playShare = playShare
        let started = Date()
        let summary = try await store.withStore { store, _ in
            try await plan.write(into: store) { done in
                if done % 100_000 == 0 { FileHandle.standardError.write(Data("  \(done) orders…\n".utf8)) }
            }
        }
        let seconds = Date().timeIntervalSince(started)
        print(
            "seeded \(summary.orders) orders in \(String(format: "%.1f", seconds)) s: \(summary.transactions) transactions, \(summary.orphans) orphans, \(summary.subscriptions) subscriptions, \(summary.disputes) open disputes"
        )
        print(OrderState.allCases.map { "\($0.rawValue) \(summary.byState[$0] ?? 0)" }.joined(separator: ", "))
    }
}
