import Foundation
import OrderDomain
import OrderStore
import TestSupport
import Testing

/// A new SQLite store holds every receipt and the audit log: only the account that runs
/// iapdesk may read it, whatever the umask, and so may its write-ahead log and shared memory.
@Suite("SQLite store files")
struct StoreFileModeTests {
    @Test("A new store, its -wal and its -shm are created owner-only (0600) under a permissive umask")
    func newStoreIsOwnerOnly() async throws {
        let previous = umask(0o022)  // the usual default: files 0644 unless created otherwise
        defer { umask(previous) }
        try await withStore(.sqlite) { store in
            guard case .sqlite(let path) = store.location else { throw Machine.Missing(what: "a SQLite store") }
            try await store.orders.place(orderId: "mode-1", accountId: "a", productId: "coins_60")
            for file in [path, path + "-wal", path + "-shm"] {
                let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
                #expect(mode == 0o600, "\(file) is \(String(mode ?? -1, radix: 8))")
            }
        }
    }
}
