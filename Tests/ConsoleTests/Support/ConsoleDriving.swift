import Foundation
import OrderStore
import Terminal
import TestSupport
import Testing

@testable import Console

/// How the console tests work the console: a throwaway SQLite store, keys typed as an
/// operator types them, and the last frame read back as text.
func withTemporaryStore(_ body: (OrderStore) async throws -> Void) async throws {
    let path = Scratch.url("iapdesk-console-\(UUID().uuidString).sqlite").path
    let store = try await OrderStore.open(.sqlite(path: path), settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    do {
        try await body(store)
    } catch {
        await store.close()
        throw error
    }
    await store.close()
}

extension ConsoleApp {
    func type(_ text: String) async {
        for c in text { await press(.character(c)) }
    }

    /// `:` then `text` then Enter.
    func command(_ text: String) async {
        await press(.character(":"))
        await type(text)
        await press(.enter)
    }
}

extension MemoryTerminal {
    /// The last frame as text; a test that drew nothing fails here.
    func screenText() throws -> String { try #require(lastFrame).text }
}
