import Foundation
import OrderDomain
import OrderStore

/// The storage backends every store test runs against: one conformance suite.
public enum Backend: String, Sendable {
    case sqlite, postgres

    /// The backends whose cases run here. A parameterized case cannot report itself skipped
    /// (Swift Testing 6.3 counts a cancelled case as passed), so a backend that cannot run
    /// is left out of the arguments and the test "Every two-backend test also runs its
    /// PostgreSQL case" shows as skipped with the reason. In CI both always run.
    public static var all: [Backend] { [.sqlite, .postgres].filter { Machine.isCI || $0.unavailableReason == nil } }

    /// Why this backend's cases cannot run here, or nil. `IAPDESK_TEST_BACKENDS` (e.g.
    /// `sqlite`) leaves backends out of a quick local run.
    public var unavailableReason: String? {
        if let chosen = ProcessInfo.processInfo.environment["IAPDESK_TEST_BACKENDS"], !chosen.split(separator: ",").contains(Substring(rawValue)) {
            return "IAPDESK_TEST_BACKENDS=\(chosen) leaves out \(rawValue)"
        }
        if self == .postgres, !PostgresServer.available {
            return "needs a PostgreSQL server: apt-get install postgresql, or set IAPDESK_TEST_POSTGRES_URL"
        }
        return nil
    }

    /// A new, empty store location for one test; in CI a backend that cannot run fails the
    /// test, naming why.
    public func freshLocation() async throws -> StoreLocation {
        if let reason = unavailableReason { throw Machine.Missing(what: "\(rawValue): \(reason)") }
        switch self {
        case .sqlite:
            let path = Scratch.url("iapdesk-test-\(UUID().uuidString).sqlite").path
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
