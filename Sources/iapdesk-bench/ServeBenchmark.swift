import ArgumentParser
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import OrderDomain
import OrderStore
import PostgresKit
import SQLiteKit
import Server
import SyntheticData

/// The intake figures: receipt submissions per second with 64 concurrent clients,
/// each answered 202 only after a durable commit, p50/p99 latency; the load comes from a
/// second process (`iapdesk-bench serve-load`, this same binary).
///
/// Two loads. Closed loop (the default): each client sends its next submission as soon as
/// the last is answered, which finds the most `serve` takes; its latency is that of a
/// queue kept full, 64 ÷ the rate on average. Open loop (`--rate`): submissions arrive on a
/// schedule whatever the answers, as game servers' players buy, and each one's latency
/// counts from when it was due, so a client held up by a slow answer is charged for the
/// wait (no coordinated omission): the latency a game server sees at that rate. In the same run the same
/// rows (submission, job) are written by raw SQL on one connection, with as many per
/// commit as the service's group commit averaged, so the service's overhead shows as a ratio.
struct ServeBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Receipt intake throughput and latency over HTTP.")

    @OptionGroup var backend: BenchBackend
    @Option(help: "Concurrent clients in the load process.") var clients: Int = 64
    @Option(help: "Seconds of load.") var seconds: Int = 10
    @Option(help: "Rows written by raw SQL for the comparison.") var rawRows: Int = 10000
    @Option(help: "Whose purchases the load submits: app-store (a 4 KB receipt) or google-play (a purchase token).")
    var store: BenchStore = .appStore
    @Option(
        help:
            "Open loop: submissions per second in all, due on a schedule spread over the clients, latency counted from when each was due. Without it, a closed loop."
    ) var rate: Double?
    @Option(help: "Open loop: seconds at the start whose submissions are sent but not counted (connections opened, caches filled).")
    var warmup: Int = 2
    @Flag(help: "Print JSON.") var json = false

    static let token = "bench-token-0123456789abcdef"

    func run() async throws {
        let location = try backend.location(name: "serve")
        defer { BenchBackend.removeIfTemporary(location) }
        let store = try await OrderStore.open(location, settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        for product in DemoCatalogue.products { try await store.catalogue.upsert(product) }
        let perClient = 20
        for client in 0..<clients {
            for index in 0..<perClient {
                _ = try await store.orders.ensure(orderId: "b-\(client)-\(index)", accountId: "acct-\(client)", productId: "coins_60")
            }
        }
        LoggingSystem.bootstrap { _ in SwiftLogNoOpLogHandler() }
        // Intake only: Google is never called, but serve takes Play submissions only for the
        // packages its Google Play client is configured with.
        let googlePlay = self.store == .googlePlay ? try BenchPlay.client(apiBase: "http://127.0.0.1:9") : nil
        let server = try await IAPDeskServer.start(
            store: store, verifier: nil, googlePlay: googlePlay, tokens: ClientTokens([("bench", Self.token)]), role: .intake, port: 0)
        guard let url = server.baseURL else { throw ValidationError("serve did not start") }

        if let rate, rate <= 0 { throw ValidationError("--rate is a positive number of submissions per second") }
        let load = try await Self.runLoad(
            url: url, clients: clients, seconds: seconds, perClient: perClient, store: self.store, rate: rate.map { (perSecond: $0, warmup: warmup) })
        let perCommit = try await Self.meanBatch(url: url)
        await server.stop()
        await googlePlay?.shutdown()
        let raw = try await Self.rawWrites(location, rows: rawRows, perCommit: max(1, Int(perCommit.rounded())))
        await store.close()

        let perSecond = Double(load.count) / load.seconds
        report(
            [
                Figure(key: "submissions_per_s", label: "receipt submissions per second (durable 202)", value: perSecond, budget: nil),
                Figure(key: "p50_ms", label: "submission latency p50 (ms)", value: load.p50, budget: nil),
                Figure(key: "p99_ms", label: "submission latency p99 (ms)", value: load.p99, budget: 25),
                Figure(key: "errors", label: "answers other than 202", value: Double(load.errors), budget: 0),
                Figure(key: "load_late_p99_ms", label: "open loop: the load's timers waking late, p99 (ms)", value: load.lateP99, budget: nil),
                Figure(key: "per_commit", label: "submissions per group commit (mean)", value: perCommit, budget: nil),
                Figure(key: "raw_per_s", label: "the same rows by raw SQL, same rows per commit (per s)", value: raw, budget: nil),
                Figure(key: "service_over_raw", label: "service rate ÷ raw rate", value: perSecond / raw, budget: nil),
            ], json: json,
            context: [
                "backend": backend.backend, "store": self.store.rawValue, "clients": "\(clients)", "seconds": "\(seconds)",
                "load": "iapdesk-bench serve-load (second process), "
                    + (rate.map { "open loop at \(Int($0)) per s after \(warmup) s not counted, latency from each one's due time" } ?? "closed loop"),
                "other answers": load.errorKinds.isEmpty
                    ? "none" : load.errorKinds.sorted { $0.key < $1.key }.map { "\($0.key) × \($0.value)" }.joined(separator: ", "),
            ])
    }

    struct LoadResult: Decodable {
        var count: Int
        var errors: Int
        /// Answers other than 202 by status code, and failed requests by error type.
        var errorKinds: [String: Int]
        var seconds: Double
        var p50: Double
        var p99: Double
        /// Open loop: how late the load's timers woke to send a submission that was not held
        /// up by its client's previous answer, p99 (ms): the part of the latency that is the
        /// load's own.
        var lateP99: Double
    }

    /// Starts the load process and reads its one line of JSON.
    static func runLoad(
        url: String, clients: Int, seconds: Int, perClient: Int, store: BenchStore, rate: (perSecond: Double, warmup: Int)?
    ) async throws -> LoadResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments =
            [
                "serve-load", "--url", url, "--clients", "\(clients)", "--seconds", "\(seconds)", "--per-client", "\(perClient)", "--store", store.rawValue,
            ] + (rate.map { ["--rate", "\($0.perSecond)", "--warmup", "\($0.warmup)"] } ?? [])
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data: Data = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: data)
            }
        }
        return try JSONDecoder().decode(LoadResult.self, from: data)
    }

    /// Submissions per group commit over the run, from the server's own counters.
    static func meanBatch(url: String) async throws -> Double {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url + "/metrics"), timeout: .seconds(10))
        let text = String(buffer: try await response.body.collect(upTo: 1 << 22))
        func counter(_ name: String) -> Double {
            text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
        }
        let commits = counter("iapdesk_intake_commits_total")
        return commits > 0 ? counter("iapdesk_intake_committed_submissions_total") / commits : 1
    }

    /// The rows a submission writes, by raw SQL on a connection of its own, `perCommit` to a commit.
    static func rawWrites(_ location: StoreLocation, rows: Int, perCommit: Int) async throws -> Double {
        let body = String(repeating: "QUJD", count: 1024)
        let start = ContinuousClock.now
        switch location {
        case .sqlite(let path):
            let connection = try await SQLiteConnection.open(storage: .file(path: path))
            _ = try await connection.query("PRAGMA journal_mode = WAL")
            _ = try await connection.query("PRAGMA synchronous = FULL")
            for index in 0..<rows {
                let order = "raw-\(index)"
                if index % perCommit == 0 { _ = try await connection.query("BEGIN IMMEDIATE") }
                _ = try await connection.query(
                    """
                    INSERT INTO receipt_submissions (order_id, account_id, claimed_transaction_id, source, receipt_data, received_at)
                    VALUES (?, 'acct', NULL, 'client', ?, ?)
                    """, [.text(order), .text(body), .integer(Int(Millis.now()))])
                _ = try await connection.query(
                    """
                    INSERT INTO jobs (kind, subject, due_at, created_at) VALUES ('verify', ?, ?, ?)
                    ON CONFLICT (kind, subject) DO UPDATE SET due_at = excluded.due_at
                    """, [.text(order), .integer(Int(Millis.now())), .integer(Int(Millis.now()))])
                if index % perCommit == perCommit - 1 || index == rows - 1 { _ = try await connection.query("COMMIT") }
            }
            try await connection.close()
        case .postgres:
            let connection = try await PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.any(), configuration: try location.postgresConfiguration(), id: 98, logger: Logger(label: "bench"))
            let logger = Logger(label: "bench")
            for index in 0..<rows {
                let order = "raw-\(index)"
                let now = Millis.now()
                if index % perCommit == 0 { _ = try await connection.query("BEGIN", logger: logger) }
                _ = try await connection.query(
                    """
                    INSERT INTO receipt_submissions (order_id, account_id, claimed_transaction_id, source, receipt_data, received_at)
                    VALUES (\(order), 'acct', NULL, 'client', \(body), \(now))
                    """, logger: logger)
                _ = try await connection.query(
                    """
                    INSERT INTO jobs (kind, subject, due_at, created_at) VALUES ('verify', \(order), \(now), \(now))
                    ON CONFLICT (kind, subject) DO UPDATE SET due_at = excluded.due_at
                    """, logger: logger)
                if index % perCommit == perCommit - 1 || index == rows - 1 { _ = try await connection.query("COMMIT", logger: logger) }
            }
            try await connection.close()
        }
        return Double(rows) / ((ContinuousClock.now - start).milliseconds / 1000)
    }
}

/// The load generator `iapdesk-bench serve` starts as a second process: `clients` tasks
/// each submitting receipts to its own orders for `seconds`; one line of JSON out.
struct ServeLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve-load", abstract: "Load for `serve` (started by `iapdesk-bench serve`).", shouldDisplay: false)

    @Option var url: String
    @Option var clients: Int = 64
    @Option var seconds: Int = 10
    @Option var perClient: Int = 20
    @Option var store: BenchStore = .appStore
    @Option var rate: Double?
    @Option var warmup: Int = 0

    func run() async throws {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: clients)
        let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let receipt = Data((0..<3072).map { UInt8(truncatingIfNeeded: $0 &* 31) }).base64EncodedString()
        let started = ContinuousClock.now
        // Open loop: the warm-up's submissions are sent but not counted; the run is as long after it.
        let counted = started + .seconds(rate == nil ? 0 : warmup)
        let deadline = counted + .seconds(seconds)
        let (url, clients, perClient, store) = (url, clients, perClient, store)
        // Open loop: each client's submissions are due every `interval`, the clients' schedules staggered.
        let interval = rate.map { Duration.seconds(Double(clients) / $0) }
        let results = await withTaskGroup(of: (Samples, [String: Int], Samples).self) { group in
            for client in 0..<clients {
                group.addTask {
                    var samples = Samples()
                    var errors: [String: Int] = [:]
                    var late = Samples()  // open loop: how long after its due time a timer sent one
                    var index = 0
                    var due = interval.map { started + $0 * (Double(client) / Double(clients)) }
                    while ContinuousClock.now < deadline {
                        // Latency counts from when it was due (open loop), else from its sending.
                        var start = ContinuousClock.now
                        if let next = due, let interval {
                            if next > start {
                                try? await Task.sleep(until: next, clock: .continuous)
                                late.record((ContinuousClock.now - next).milliseconds)  // the timer's own delay
                            }
                            start = next
                            due = next + interval
                        }
                        var request = HTTPClientRequest(url: "\(url)/v1/orders/b-\(client)-\(index % perClient)/receipts")
                        request.method = .POST
                        request.headers.add(name: "Authorization", value: "Bearer \(ServeBenchmark.token)")
                        request.headers.add(name: "Content-Type", value: "application/json")
                        let body =
                            switch store {
                            case .appStore: #"{"receipt_data":"\#(receipt)"}"#
                            case .googlePlay:
                                #"{"google_play":{"package_name":"\#(BenchPlay.package)","purchase_token":"bench-\#(client)-\#(index)-\#(BenchPlay.tokenTail)"}}"#
                            }
                        request.body = .bytes(ByteBuffer(string: body))
                        do {
                            let response = try await http.execute(request, timeout: .seconds(30))
                            let body = try await response.body.collect(upTo: 1 << 16)
                            if response.status == .accepted {
                                if start >= counted { samples.record((ContinuousClock.now - start).milliseconds) }
                            } else {
                                errors["\(response.status.code) \(String(buffer: body).prefix(160))", default: 0] += 1
                            }
                        } catch {
                            errors["\(type(of: error))", default: 0] += 1
                        }
                        index += 1
                    }
                    return (samples, errors, late)
                }
            }
            var all = (Samples(), [String: Int](), Samples())
            for await (samples, errors, late) in group {
                all.0.append(samples)
                all.1.merge(errors, uniquingKeysWith: +)
                all.2.append(late)
            }
            return all
        }
        try? await http.shutdown()
        let object: [String: Any] = [
            "count": results.0.values.count, "errors": results.1.values.reduce(0, +), "errorKinds": results.1, "seconds": Double(seconds),
            "p50": results.0.p50, "p99": results.0.p99, "lateP99": results.2.values.isEmpty ? 0 : results.2.p99,
        ]
        let data = try JSONSerialization.data(withJSONObject: object)
        print(String(decoding: data, as: UTF8.self))
    }
}
