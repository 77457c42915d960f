import AppStoreSimulator
import Foundation
import OrderDomain
import OrderStore
import SyntheticData
import TestSupport
import Testing

@testable import Server

/// `serve` on a SQLite store whose disk fails under it: the kernel turns the filesystem
/// read-only (ext4 `errors=remount-ro`), open files included. The intake answers 503 with
/// Retry-After and `/readyz` says so; the process keeps running; every submission it
/// acknowledged before is on the disk.
@Suite("serve: SQLite on a disk turned read-only", .serialized, .needsFailingFilesystem)
struct ReadOnlyDiskTests {
    @Test("The filesystem turns read-only under load: 503 with Retry-After, /readyz 503, no crash; every 202 given before is on the disk")
    func filesystemTurnsReadOnly() async throws {
        let disk = try FailingFilesystem.mount()
        defer { disk.unmount() }
        let path = disk.path + "/store.sqlite"
        var tally = DiskFullTests.Tally()
        try await IntakeTests.withServe(.sqlite, location: .sqlite(path: path)) { serve in
            var receipts: [(String, String)] = []
            for index in 0..<40 {
                let order = "ro-\(index)"
                await serve.simulator.ledger.purchase(appleId: "\(order)@icloud", productId: "coins_60", kind: .consumable, appAccountToken: order)
                receipts.append((order, try await serve.simulator.ledger.receipt(appleId: "\(order)@icloud")))
            }
            for (order, receipt) in receipts.prefix(20) { try await DiskFullTests.submit(serve, order, receipt, into: &tally) }
            #expect(tally.acknowledged.count == 20, "\(tally.statuses)")

            try disk.fail()
            let before = tally.acknowledged.count
            for (order, receipt) in receipts[20..<40] { try await DiskFullTests.submit(serve, order, receipt, into: &tally) }
            #expect(tally.acknowledged.count == before, "nothing acknowledged on a read-only disk: \(tally.statuses)")
            #expect(tally.statuses[503, default: 0] > 0, "\(tally.statuses)")
            #expect(Set(tally.statuses.keys).isSubset(of: [200, 201, 202, 503]), "only stored or unavailable: \(tally.statuses)")
            #expect(tally.unavailableWithoutRetryAfter == 0, "every 503 says Retry-After")
            // The store's watch tries a write every 2 s while one failed; under the whole suite
            // a write the disk holds may still be pending when the last submission timed out.
            var ready = try await serve.callWithHeaders(.GET, "/readyz", token: nil)
            let deadline = Date().addingTimeInterval(30)
            while ready.status != 503, Date() < deadline {
                try await Task.sleep(for: .milliseconds(250))
                ready = try await serve.callWithHeaders(.GET, "/readyz", token: nil)
            }
            #expect(ready.status == 503, "readyz while the disk is read-only: \(ready.status) \(ready.body)")
            #expect(try await serve.callWithHeaders(.GET, "/healthz", token: nil).status == 200, "the process itself is alive")
        }

        // Repaired and mounted again: every acknowledged submission is there.
        try disk.remount()
        let store = try await OrderStore.open(.sqlite(path: path), settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        for (order, id) in tally.acknowledged {
            #expect(try await store.orders.detail(order).submissions.map(\.id).contains(id), "\(order)'s 202 is on the disk")
        }
        await store.close()
    }
}
