import ArgumentParser
import Foundation
import OrderDomain
import OrderStore
import SyntheticData

/// `iapdesk-bench store`: the Performance article's store budgets on a seeded store, plus the same
/// lookups as raw SQL on their own connection, so the store's overhead shows as a ratio.
/// With `--reuse` and several `--db`, one run measures each store and prints them side by
/// side: growth from 100,000 to 10,000,000 orders in one table.
struct StoreBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "store", abstract: "Measure the store budgets (release build).")

    @Option(help: "Orders to seed.") var orders: Int = 1_000_000
    @Option(help: "The share of seeded orders paid at Google Play (0 to 1); the budgets are stated with both stores mixed.") var playShare: Double = 0.5
    @Option(help: "sqlite or postgres.") var backend: String = "sqlite"
    @Option(
        help:
            "Store location: a SQLite path (default: a temp file) or, for postgres, a postgres:// URL of an empty database. Repeat it with --reuse to measure several stores in one table."
    ) var db: [String] = []
    @Flag(help: "Reuse an already seeded store at --db instead of seeding.") var reuse = false
    @Option(help: "Samples per latency figure.") var samples: Int = 2000
    @Flag(help: "Print one JSON object instead of a table.") var json = false

    func run() async throws {
        guard (0...1).contains(playShare) else { throw ValidationError("--play-share is between 0 and 1") }
        let locations: [StoreLocation]
        switch (backend, db.isEmpty) {
        case ("sqlite", true): locations = [.sqlite(path: NSTemporaryDirectory() + "iapdesk-bench-\(UUID().uuidString.prefix(8)).sqlite")]
        case ("sqlite", false): locations = db.map { .sqlite(path: $0) }
        case ("postgres", false): locations = db.map { .postgres(url: $0) }
        case ("postgres", true): throw ValidationError("--backend postgres needs --db postgres://user@host:port/emptydb")
        default: throw ValidationError("--backend is sqlite or postgres")
        }
        guard locations.count == 1 || reuse else { throw ValidationError("several --db are measured as they are: add --reuse") }
        if locations.count > 1 {
            var columns: [(orders: Int, figures: [Figure])] = []
            for location in locations { columns.append(try await measure(location)) }
            reportSideBySide(columns, json: json, backend: backend)
            return
        }
        let location = locations[0]
        var figures: [Figure] = []
        let anchor = Millis.now() / 60_000 * 60_000

        // §7: a million orders in a minute; ten million in ten minutes.
        let seedBudget: Double? = orders >= 1_000_000 ? Double(orders) / 1_000_000 * 60 : nil
        if !reuse {
            let store = try await OrderStore.open(location, settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
            let start = ContinuousClock.now
            var plan = SyntheticStore(orders: orders, seed: 1, anchor: anchor)
            plan.playShare = playShare
            try await plan.write(into: store)
            figures.append(
                Figure(key: "seed_s", label: "seed \(orders) orders (s)", value: (ContinuousClock.now - start).milliseconds / 1000, budget: seedBudget))
            await store.close()
        }
        let (total, measured) = try await measure(location)
        report(figures + measured, json: json, context: ["backend": backend, "orders": "\(total)"])
    }

    /// Every figure but seeding, on a seeded store; returns its order count with them.
    private func measure(_ location: StoreLocation) async throws -> (orders: Int, figures: [Figure]) {
        let settings = StoreSettings(bundleId: DemoCatalogue.bundleId)
        var figures: [Figure] = []
        // Open and first page: what the console does before its first frame.
        var openSamples = Samples()
        for _ in 0..<5 {
            try await openSamples.time {
                let store = try await OrderStore.open(location, settings: settings)
                _ = try await store.orders.page(limit: 50)
                _ = try await store.reports.counts()
                await store.close()
            }
        }
        figures.append(Figure(key: "open_first_page_ms", label: "open + first page + counts (ms, median of 5)", value: openSamples.p50, budget: 100))

        let store = try await OrderStore.open(location, settings: settings)
        let raw = try await RawSQL.open(location)
        var random = SystemRandomNumberGenerator()
        let total = Int(try await store.reports.counts().total)

        // Ids of every kind, sampled from random orders (untimed).
        var probes: [(order: String, account: String, tid: String?, otid: String?)] = []
        var tokens: [String] = []
        while probes.count < samples {
            let id = "ord_" + String(format: "%09d", Int.random(in: 1...max(total, 1), using: &random))
            guard let order = try await store.orders.find(id) else { continue }
            probes.append((order.orderId, order.accountId, order.transactionId, order.originalTransactionId))
            if order.marketplace == .googlePlay, let token = try await store.googlePlay.tokens(ofOrder: order.orderId).first { tokens.append(token) }
        }

        var byOrder = Samples(), rawByOrder = Samples(), anyId = Samples()
        var byKind = [Samples](repeating: Samples(), count: 4)
        for probe in probes {
            _ = try await byOrder.time { try await store.orders.find(probe.order) }
            _ = try await rawByOrder.time { try await raw.orderById(probe.order) }
        }
        // The n-th probe's id: order, account, transaction, original transaction in turn.
        func probeId(_ n: Int) -> String {
            let probe = probes[n]
            return [probe.order, probe.account, probe.tid ?? probe.order, probe.otid ?? probe.order][n % 4]
        }
        for n in probes.indices {
            let id = probeId(n)
            let start = ContinuousClock.now
            _ = try await anyId.time { try await store.orders.lookup(id) }
            byKind[n % 4].record((ContinuousClock.now - start).milliseconds)
        }
        figures.append(Figure(key: "lookup_order_id_p99_ms", label: "lookup by order id p99 (ms)", value: byOrder.p99, budget: 1))
        figures.append(Figure(key: "lookup_any_id_p99_ms", label: "lookup by any id (order/account/tid/otid) p99 (ms)", value: anyId.p99, budget: 1))
        for (kind, samples) in zip(["order_id", "account_id", "transaction_id", "original_transaction_id"], byKind) {
            figures.append(
                Figure(
                    key: "lookup_by_\(kind)_p99_ms", label: "  lookup(any) given a \(kind.replacingOccurrences(of: "_", with: " ")) p99 (ms)",
                    value: samples.p99, budget: nil))
        }
        // A Google Play purchase token: no everyday kind matches, so the rarer kinds are asked too.
        var byToken = Samples()
        for token in tokens { _ = try await byToken.time { try await store.orders.lookup(token) } }
        if !tokens.isEmpty {
            figures.append(
                Figure(key: "lookup_by_purchase_token_p99_ms", label: "  lookup(any) given a purchase token p99 (ms)", value: byToken.p99, budget: nil))
        }
        // `/` with the first half of an id: exact lookup, then the four prefix ranges.
        var prefixSearch = Samples()
        for n in probes.indices {
            let id = probeId(n)
            _ = try await prefixSearch.time { try await store.orders.search(String(id.prefix(max(1, id.count / 2)))) }
        }
        figures.append(
            Figure(key: "search_prefix_p99_ms", label: "search by half an id (exact + prefix, 50 rows) p99 (ms)", value: prefixSearch.p99, budget: nil))
        figures.append(Figure(key: "raw_lookup_order_id_p99_ms", label: "raw SQL lookup by order id p99 (ms)", value: rawByOrder.p99, budget: nil))
        figures.append(Figure(key: "lookup_overhead_ratio", label: "store / raw SQL, lookup p50 (×)", value: byOrder.p50 / rawByOrder.p50, budget: 10))

        var firstPage = Samples(), rawFirstPage = Samples(), nextPage = Samples(), statePage = Samples(), stuckPage = Samples(), chain = Samples(),
            counts = Samples()
        for _ in 0..<max(samples / 10, 50) {
            _ = try await firstPage.time { try await store.orders.page(limit: 50) }
            _ = try await rawFirstPage.time { try await raw.firstPage(limit: 50) }
        }
        var cursor: OrderCursor?
        for _ in 0..<max(samples / 4, 100) {
            let page = try await nextPage.time { try await store.orders.page(after: cursor, limit: 50) }
            cursor = page.next
        }
        var stateCursor: OrderCursor?
        for _ in 0..<max(samples / 4, 100) {
            let page = try await statePage.time { try await store.orders.page(OrderFilter(state: .delivered), after: stateCursor, limit: 50) }
            stateCursor = page.next
        }
        for _ in 0..<max(samples / 10, 50) {
            _ = try await stuckPage.time { try await store.reports.stuck(limit: 50) }
            _ = try await counts.time { try await store.reports.counts() }
        }
        // An order's whole detail (the console's order screen): the order and its rows in
        // six other tables, each an index probe.
        var detail = Samples()
        for probe in probes.prefix(max(samples / 4, 100)) {
            _ = try await detail.time { try await store.orders.detail(probe.order) }
        }
        for probe in probes.filter({ $0.otid != nil }).prefix(samples / 4) {
            _ = try await chain.time { try await store.subscriptions.detail(probe.otid ?? "") }
        }
        figures.append(Figure(key: "next_page_p99_ms", label: "next page (50, by key) p99 (ms)", value: nextPage.p99, budget: 5))
        figures.append(Figure(key: "state_page_p99_ms", label: "next page filtered by state p99 (ms)", value: statePage.p99, budget: 5))
        figures.append(Figure(key: "stuck_page_p99_ms", label: "stuck queue page p99 (ms)", value: stuckPage.p99, budget: 5))
        figures.append(Figure(key: "order_detail_p99_ms", label: "order detail (all its rows) p99 (ms)", value: detail.p99, budget: 5))
        figures.append(Figure(key: "subscription_chain_p99_ms", label: "subscription chain p99 (ms)", value: chain.p99, budget: 5))
        figures.append(Figure(key: "counts_p99_ms", label: "header counts p99 (ms)", value: counts.p99, budget: 5))
        figures.append(Figure(key: "page_overhead_ratio", label: "store / raw SQL, first page p50 (×)", value: firstPage.p50 / rawFirstPage.p50, budget: 10))
        await raw.close()
        await store.close()
        return (total, figures)
    }

    /// One row per figure, one column per store, a miss marked `!`; or, with `--json`, one
    /// object per store.
    private func reportSideBySide(_ columns: [(orders: Int, figures: [Figure])], json: Bool, backend: String) {
        if json {
            for column in columns { report(column.figures, json: true, context: ["backend": backend, "orders": "\(column.orders)"]) }
            return
        }
        print("backend: \(backend)")
        let width = columns.first?.figures.map(\.label.count).max() ?? 0
        let header = columns.map { "\($0.orders) orders".padding(toLength: 16, withPad: " ", startingAt: 0) }.joined()
        print("".padding(toLength: width, withPad: " ", startingAt: 0) + "  " + header + "budget")
        for (row, figure) in (columns.first?.figures ?? []).enumerated() {
            let cells = columns.map { column -> String in
                let cell = column.figures[row]
                let miss = cell.budget.map { cell.value > $0 } ?? false
                return (format(cell.value) + (miss ? " !" : "")).padding(toLength: 16, withPad: " ", startingAt: 0)
            }
            print(figure.label.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + cells.joined() + (figure.budget.map { "≤ " + format($0) } ?? ""))
        }
    }
}
