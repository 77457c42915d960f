import Console
import OrderDomain
import OrderStore
import SyntheticData
import Terminal
import Testing

/// How the console tests work the console: a throwaway SQLite store with no catalogue (the
/// test seeds what it shows), keys typed as an operator types them, and the last frame read
/// back as text.
public func withTemporaryStore(_ body: (OrderStore) async throws -> Void) async throws {
    try await withStore(.sqlite, settings: StoreSettings(bundleId: DemoCatalogue.bundleId), catalogue: [], body)
}

extension ConsoleApp {
    public func type(_ text: String) async {
        for c in text { await press(.character(c)) }
    }

    /// `:` then `text` then Enter.
    public func command(_ text: String) async {
        await press(.character(":"))
        await type(text)
        await press(.enter)
    }
}

extension MemoryTerminal {
    /// The last frame as text; a test that drew nothing fails here.
    public func screenText() throws -> String { try #require(lastFrame).text }
}
