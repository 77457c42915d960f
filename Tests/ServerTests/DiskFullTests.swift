import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import TestSupport
import Testing

@testable import Server

/// `serve` on a SQLite store whose filesystem fills up while game servers submit receipts:
/// the intake answers 503 with Retry-After and loses nothing it acknowledged, and the same
/// process takes orders again once space is freed.
@Suite("serve: SQLite on a full disk", .serialized, .needsSmallFilesystem)
struct DiskFullTests {
    struct Tally {
        var acknowledged: [(order: String, submission: Int64)] = []
        var statuses: [Int: Int] = [:]
        var unavailableWithoutRetryAfter = 0
    }

    /// Places `order` and submits its receipt; records what the game server was told.
    static func submit(_ serve: IntakeTests.Running, _ order: String, _ receipt: String, into tally: inout Tally) async throws {
        let placed = try await serve.callWithHeaders(
            .POST, "/v1/orders", json: #"{"order_id":"\#(order)","account_id":"acct-\#(order)","product_id":"coins_60"}"#)
        tally.statuses[placed.status, default: 0] += 1
        if placed.status == 503, placed.retryAfter == nil { tally.unavailableWithoutRetryAfter += 1 }
        guard placed.status == 201 || placed.status == 200 else { return }
        let answer = try await serve.callWithHeaders(.POST, "/v1/orders/\(order)/receipts", json: #"{"receipt_data":"\#(receipt)"}"#)
        tally.statuses[answer.status, default: 0] += 1
        if answer.status == 503, answer.retryAfter == nil { tally.unavailableWithoutRetryAfter += 1 }
        if answer.status == 202, let id = answer.body["submission_id"] as? Int { tally.acknowledged.append((order, Int64(id))) }
    }

    @Test(
        "The disk fills up under load: 503 with Retry-After and /readyz 503, every 202 stored and delivered once; when space is freed it is ready again and the same process takes orders"
    )
    func diskFullThenSpaceFreed() async throws {
        let disk = try SmallFilesystem.mount(kilobytes: 24 * 1024)
        defer { disk.unmount() }
        try await IntakeTests.withServe(.sqlite, location: .sqlite(path: disk.path + "/store.sqlite")) { serve in
            var receipts: [(String, String)] = []
            for index in 0..<220 {
                let order = "full-\(index)"
                await serve.simulator.ledger.purchase(appleId: "\(order)@icloud", productId: "coins_60", kind: .consumable, appAccountToken: order)
                receipts.append((order, try await serve.simulator.ledger.receipt(appleId: "\(order)@icloud")))
            }
            var tally = Tally()
            for (order, receipt) in receipts.prefix(10) { try await Self.submit(serve, order, receipt, into: &tally) }
            #expect(tally.acknowledged.count == 10, "\(tally.statuses)")

            // Full: what is left fills within the load. The write-ahead log is emptied first
            // (as a checkpoint does in time), or the load would only reuse its pages.
            try PostgresServer.run("/usr/bin/sqlite3", [disk.path + "/store.sqlite", "PRAGMA wal_checkpoint(TRUNCATE)"])
            try disk.fill(leaving: 96 * 1024)
            for (order, receipt) in receipts[10..<200] { try await Self.submit(serve, order, receipt, into: &tally) }
            var stats = statvfs()
            _ = statvfs(disk.path, &stats)
            #expect(tally.statuses[503, default: 0] > 0, "the disk filled up: \(tally.statuses), \(Int(stats.f_bavail) * Int(stats.f_frsize)) bytes free")
            #expect(Set(tally.statuses.keys).isSubset(of: [200, 201, 202, 503]), "only stored or unavailable: \(tally.statuses)")
            #expect(tally.unavailableWithoutRetryAfter == 0, "every 503 says Retry-After")

            // Not ready while writes fail. The worker's small writes may still fit in pages the
            // store freed and clear the outage for a moment: a write that needs space (a new
            // order) fails again and says so, at most twenty times.
            var whileFull = try await serve.callWithHeaders(.GET, "/readyz", token: nil)
            for probe in 0..<20 where whileFull.status != 503 {
                _ = try await serve.callWithHeaders(.POST, "/v1/orders", json: #"{"order_id":"probe-\#(probe)","account_id":"p","product_id":"coins_60"}"#)
                whileFull = try await serve.callWithHeaders(.GET, "/readyz", token: nil)
            }
            #expect(whileFull.status == 503, "readyz while the disk is full: \(whileFull.status) \(whileFull.body)")

            // Space comes back: ready again without traffic, and the same process takes orders.
            disk.free()
            let ready = try await eventually(within: 10) { try await serve.callWithHeaders(.GET, "/readyz", token: nil).status == 200 }
            #expect(ready, "readyz is 200 again once space is freed")
            let backAt = tally.acknowledged.count
            for (order, receipt) in receipts[200..<220] { try await Self.submit(serve, order, receipt, into: &tally) }
            #expect(tally.acknowledged.count - backAt == 20, "after space was freed: \(tally.statuses)")

            // Nothing acknowledged was lost, and the worker delivers each paid order once.
            for (order, id) in tally.acknowledged {
                #expect(try await serve.store.orders.detail(order).submissions.map(\.id).contains(id), "\(order)'s 202 is in the store")
            }
            let delivered = try await eventually(within: 60) {
                var all = true
                for (order, _) in tally.acknowledged where try await serve.store.orders.find(order)?.state != .delivered { all = false }
                return all
            }
            let files = (try? FileManager.default.contentsOfDirectory(atPath: disk.path))?.map { name in
                "\(name) \((try? FileManager.default.attributesOfItem(atPath: disk.path + "/" + name)[.size]) as? Int ?? -1)"
            }
            #expect(delivered, "every acknowledged order delivered; on the disk: \(files ?? [])")
            for (order, _) in tally.acknowledged { #expect(try await serve.store.orders.detail(order).grants.count == 1, "\(order) granted once") }
        }
    }
}
