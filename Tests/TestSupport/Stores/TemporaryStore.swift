import Foundation
import OrderDomain
import OrderStore
import Testing

extension Backend: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}

/// Opens a fresh store with the test catalogue, runs `body`, closes it.
public func withStore<T>(
    _ backend: Backend, settings: StoreSettings = .test, catalogue: [Product] = TestCatalogue.all, _ body: (OrderStore) async throws -> T
) async throws -> T {
    let location = try await backend.freshLocation()
    let store = try await OrderStore.open(location, settings: settings)
    do {
        for product in catalogue { try await store.catalogue.upsert(product) }
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
public func withTwoConnections<T>(_ backend: Backend, _ body: (OrderStore, OrderStore) async throws -> T) async throws -> T {
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

/// Another connection to `location`, opened with `settings` (another key, another login),
/// for `body`; closed afterwards whatever happens.
public func withConnection(to location: StoreLocation, settings: StoreSettings = .test, _ body: (OrderStore) async throws -> Void) async throws {
    let other = try await OrderStore.open(location, settings: settings)
    do {
        try await body(other)
        await other.close()
    } catch {
        await other.close()
        throw error
    }
}

private func cleanUp(_ location: StoreLocation) { Backend.cleanUp(location) }
