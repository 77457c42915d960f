import Foundation
import OrderDomain
import OrderStore
import SyntheticData
import TestSupport
import Testing

@testable import IAPDeskApp
@testable import IAPDeskCLI

/// A viewer needs no write access to a SQLite store. Someone who may only read
/// the file opens it read-only: lists and audit verify work, every action is refused as a
/// viewer's, and the file is unchanged. Runs the real binary as the unprivileged `nobody`.
@Suite("Read-only SQLite store")
struct ReadOnlyStoreTests {
    static func hasNobody() -> Bool { Machine.isRoot && system("id nobody >/dev/null 2>&1") == 0 }

    @Test(
        "As a user who may only read the file: order list and audit verify work, a grant is refused, nothing is written",
        .needsBinary, .needs("root and the user nobody") { hasNobody() })
    func viewerReadsWithoutWriteAccess() async throws {
        let binary = try Machine.requireBinary()
        guard Self.hasNobody() else { throw Machine.Missing(what: "root and the user nobody") }
        // A directory anyone may create in (SQLite's -shm beside the file), like /tmp.
        let folder = Scratch.url("iapdesk-ro-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o1777])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let db = folder + "/store.sqlite"
        let store = try await OrderStore.open(.sqlite(path: db), settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        _ = try await SyntheticStore(orders: 500, seed: 3).write(into: store)
        try await store.operators.add(name: "nobody", role: .admin, by: Operator(name: "nobody", role: .admin))
        let stuck = try #require(try await store.reports.stuck(now: .now()).items.first?.order.orderId)
        await store.close()
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: db)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let copy = folder + "/iapdesk"
        // Copied by a child process: a copy written from this process keeps a writable
        // descriptor that a test forking in parallel inherits, and running the copy then
        // fails with "Text file busy".
        #expect(system("install -m 755 '\(binary)' '\(copy)'") == 0)

        func asNobody(_ arguments: String) async -> (Int32, String) {
            let output = folder + "/out-\(UUID().uuidString.prefix(6))"
            let status = await OffPool.run { system("su nobody -s /bin/sh -c 'cd \(folder) && \(copy) \(arguments) --db \(db)' > \(output) 2>&1") }
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            return (status, text)
        }
        let (listed, list) = await asNobody("order list --limit 3")
        #expect(listed == 0 && list.contains("ORDER"), "\(list)")
        let (verified, audit) = await asNobody("audit verify")
        #expect(verified == 0 && audit.contains("intact"), "\(audit)")
        // Admin in the operators table, but the file says otherwise: a viewer here.
        let (granted, refusal) = await asNobody("order grant \(stuck) --reason test")
        #expect(granted != 0 && refusal.contains("viewer"), "\(refusal)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before, "the store file is unchanged")
    }
}
