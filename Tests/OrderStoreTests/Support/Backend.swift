import Foundation
@testable import OrderStore

/// The storage backends every store test runs against: one conformance suite.
enum Backend: String, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    var testDescription: String { rawValue }

    /// Both backends, unless `IAPDESK_TEST_BACKENDS` names some (e.g. `sqlite`) for a quick local run.
    static var all: [Backend] {
        if let chosen = ProcessInfo.processInfo.environment["IAPDESK_TEST_BACKENDS"] {
            return chosen.split(separator: ",").compactMap { Backend(rawValue: String($0)) }
        }
        return PostgresServer.shouldRun ? [.sqlite, .postgres] : [.sqlite]
    }

    /// A new, empty store location for one test.
    func freshLocation() async throws -> StoreLocation {
        switch self {
        case .sqlite:
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("iapdesk-test-\(UUID().uuidString).sqlite").path
            return .sqlite(path: path)
        case .postgres:
            return .postgres(url: try await PostgresServer.freshDatabaseURL())
        }
    }
}

import Testing

/// Opens a fresh store with the test catalogue, runs `body`, closes it.
func withStore<T>(_ backend: Backend, settings: StoreSettings = .test, _ body: (OrderStore) async throws -> T) async throws -> T {
    let location = try await backend.freshLocation()
    let store = try await OrderStore.open(location, settings: settings)
    do {
        try await TestCatalogue.install(in: store)
        let result = try await body(store)
        await store.close()
        cleanUp(location)
        return result
    } catch {
        await store.close()
        cleanUp(location)
        throw error
    }
}

/// Two independent connections to one store, like two operators on two machines.
func withTwoConnections<T>(_ backend: Backend, _ body: (OrderStore, OrderStore) async throws -> T) async throws -> T {
    let location = try await backend.freshLocation()
    let first = try await OrderStore.open(location, settings: .test)
    let second = try await OrderStore.open(location, settings: .test)
    defer { cleanUp(location) }
    do {
        try await TestCatalogue.install(in: first)
        let result = try await body(first, second)
        await first.close()
        await second.close()
        return result
    } catch {
        await first.close()
        await second.close()
        throw error
    }
}

private func cleanUp(_ location: StoreLocation) {
    if case .sqlite(let path) = location {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
