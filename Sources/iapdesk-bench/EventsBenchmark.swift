import AppStore
import ArgumentParser
import Foundation
import Logging
import OrderDomain
import OrderStore
import Receipts
import ReferenceGame
import Server
import SyntheticData

/// The outbox's figures: events per second pushed to a healthy local game (the reference
/// receiver, on loopback in this process) and the time from the grant to the game's
/// confirmation. Phase one drains a backlog of delivered orders' events; phase two grants
/// orders one by one from a second connection while the worker runs, as a live system
/// would, and reads each event's written and confirmed times from the store.
struct EventsBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "events", abstract: "Events to a healthy game: throughput and grant → confirmation latency.")

    @OptionGroup var backend: BenchBackend
    @Option(help: "Events in the backlog drained in phase one.") var backlog: Int = 5000
    @Option(help: "Accounts the events are spread over.") var accounts: Int = 500
    @Option(help: "Grants written one by one in phase two.") var live: Int = 500
    @Option(help: "Milliseconds between phase two's grants.") var pace: Int = 10
    @Flag(
        help:
            "Write the grants through the worker's own store, as `serve --role all` does (its commits wake the worker); by default they come from a second connection, as from another process, which the worker finds by polling."
    )
    var sameProcess = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let location = try backend.location(name: "events")
        defer { BenchBackend.removeIfTemporary(location) }
        LoggingSystem.bootstrap { _ in SwiftLogNoOpLogHandler() }
        let store = try await OrderStore.open(location, settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        for product in DemoCatalogue.products { try await store.catalogue.upsert(product) }
        let writer = sameProcess ? store : try await OrderStore.open(location, settings: StoreSettings(bundleId: DemoCatalogue.bundleId))

        // Phase one's backlog, written before any worker runs.
        for index in 0..<backlog { try await Self.deliver(writer, order: "b-\(index)", account: "acct-\(index % accounts)") }

        let secret = "bench-webhook-secret"
        let game = ReferenceGame(secret: secret)
        let receiver = try await ReferenceGameServer.start(game)
        var settings = Worker.Settings()
        settings.kinds = [.sendEvents]
        let verifier = AppleVerifier(settings: AppStoreSettings(bundleId: DemoCatalogue.bundleId, verifyReceipt: .apple, trust: TrustRoots()))
        try await store.makeCommitsDurable()
        let worker = Worker(
            store: store, verifier: verifier, game: GameWebhook(url: receiver.webhookURL, secrets: [Secret(value: secret, origin: "bench")]),
            settings: settings)
        let start = ContinuousClock.now
        let running = Task { await worker.work() }
        while try await store.outbox.unconfirmedCount() > 0 { try await Task.sleep(for: .milliseconds(20)) }
        let drained = ContinuousClock.now - start

        // Phase two: grants while the worker runs, paced.
        for index in 0..<live {
            try await Self.deliver(writer, order: "l-\(index)", account: "acct-\(index % accounts)")
            try await Task.sleep(for: .milliseconds(pace))
        }
        while try await store.outbox.unconfirmedCount() > 0 { try await Task.sleep(for: .milliseconds(20)) }
        running.cancel()
        await running.value
        var latency = Samples()
        for index in 0..<live {
            for detail in try await store.outbox.events(orderId: "l-\(index)") {
                if let confirmed = detail.event.confirmedAt { latency.record(Double(confirmed - detail.event.createdAt)) }
            }
        }
        let applied = await game.applied.count
        await receiver.stop()
        await verifier.shutdown()
        if !sameProcess { await writer.close() }
        await store.close()

        report(
            [
                Figure(
                    key: "events_per_s", label: "events confirmed per second (backlog of \(backlog))", value: Double(backlog) / (drained.milliseconds / 1000),
                    budget: nil),
                Figure(key: "grant_to_confirmed_p50_ms", label: "grant → game's confirmation p50 (ms)", value: latency.p50, budget: nil),
                Figure(key: "grant_to_confirmed_p99_ms", label: "grant → game's confirmation p99 (ms)", value: latency.p99, budget: 50),
                Figure(
                    key: "applied_twice", label: "events the game saw twice", value: Double(applied - backlog - live) + Double(await game.duplicates), budget: 0
                ),
            ], json: json,
            context: [
                "backend": backend.backend, "accounts": "\(accounts)", "live_pace_ms": "\(pace)",
                "grants from": sameProcess
                    ? "the worker's store (woken on commit)"
                    : "a second store, as another process (woken by \(backend.backend == "postgres" ? "LISTEN/NOTIFY" : "the idle poll"))",
                "receiver": "reference game, loopback, same process",
            ])
    }

    /// An order placed, its receipt stored, Apple's valid answer applied: delivered, with its event.
    static func deliver(_ store: OrderStore, order: String, account: String) async throws {
        _ = try await store.orders.place(orderId: order, accountId: account, productId: "coins_60")
        let submission = try await store.orders.submit(orderId: order, receiptData: "r-\(order)")
        let purchase = AppleTransaction(transactionId: "tx-\(order)", originalTransactionId: "tx-\(order)", productId: "coins_60", purchaseDate: .now() - 1_000)
        _ = try await store.apple.apply(
            orderId: order, submissionId: submission,
            report: VerificationReport(
                environment: .production, appleStatus: 0, content: AppleReceiptContent(bundleId: DemoCatalogue.bundleId, inApp: [purchase])))
    }
}
