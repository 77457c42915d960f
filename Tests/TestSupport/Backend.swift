import Foundation
import OrderStore

/// The storage backends every store test runs against: one conformance suite.
public enum Backend: String, Sendable {
    case sqlite, postgres

    /// Both backends, unless `IAPDESK_TEST_BACKENDS` names some (e.g. `sqlite`) for a quick local run.
    public static var all: [Backend] {
        if let chosen = ProcessInfo.processInfo.environment["IAPDESK_TEST_BACKENDS"] {
            return chosen.split(separator: ",").compactMap { Backend(rawValue: String($0)) }
        }
        return PostgresServer.shouldRun ? [.sqlite, .postgres] : [.sqlite]
    }

    /// A new, empty store location for one test.
    public func freshLocation() async throws -> StoreLocation {
        switch self {
        case .sqlite:
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("iapdesk-test-\(UUID().uuidString).sqlite").path
            return .sqlite(path: path)
        case .postgres:
            return .postgres(url: try await PostgresServer.freshDatabaseURL())
        }
    }

    /// Removes a SQLite store's files; a PostgreSQL test database goes with the server.
    public static func cleanUp(_ location: StoreLocation) {
        if case .sqlite(let path) = location {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
    }
}
