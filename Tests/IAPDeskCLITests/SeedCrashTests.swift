import Foundation
import OrderDomain
import OrderStore
import SyntheticData
import TestSupport
import Testing

/// `iapdesk seed` killed with SIGKILL at random points. A seed is one
/// transaction, so every kill leaves the store as the seed found it: writable, its audit
/// head matching its log, every index in place; and the next seed completes.
@Suite("seed: kill -9", .serialized, .needsBinary)
struct SeedCrashTests {
    static let kills = 10

    @Test(
        "kill -9 of seed, 10 times per backend: the store opens, audit verify is clean, every index is there, an operator can be added, and the next seed completes",
        arguments: Backend.all)
    func killSeed(backend: Backend) async throws {
        let binary = try Machine.requireBinary()
        let location = try await backend.freshLocation()
        defer { Backend.cleanUp(location) }
        let db: String =
            switch location {
            case .sqlite(let path): path
            case .postgres(let url): url
            }
        let settings = StoreSettings(bundleId: DemoCatalogue.bundleId)
        // The shape of a healthy store: its indexes as the migrations made them.
        let fresh = try await OrderStore.open(location, settings: settings)
        let indexes = try await fresh.indexNames()
        await fresh.close()
        #expect(indexes.count > 30)

        var generator = SystemRandomNumberGenerator()
        for round in 1...Self.kills {
            let process = try Spawned(binary, ["seed", "--db", db, "--orders", "100000", "--seed", "\(round)"])
            // From before the first batch to deep into the load or the index builds.
            try await Task.sleep(for: .milliseconds(Int.random(in: 200...3_000, using: &generator)))
            kill(process.processIdentifier, SIGKILL)
            await process.exited()

            let store = try await OrderStore.open(location, settings: settings)
            let orders: Int64
            do {
                guard case .intact = try await store.audit.verify() else {
                    Issue.record("round \(round): the audit chain is broken after the kill")
                    await store.close()
                    return
                }
                #expect(try await store.indexNames() == indexes, "round \(round): every index is still there")
                orders = try await store.reports.counts().total
                #expect(orders == 0 || orders == 100_000, "round \(round): all or nothing, found \(orders)")
                // Writable: each round's operator is added by the one before.
                try await store.operators.add(name: "op-\(round)", role: .admin, by: Operator(name: round == 1 ? "root" : "op-\(round - 1)", role: .admin))
            } catch {
                await store.close()
                throw error
            }
            await store.close()
            if orders != 0 { return }  // the seed finished before the kill: nothing more to break
        }
        let finish = try Spawned(binary, ["seed", "--db", db, "--orders", "20000"])
        await finish.exited()
        #expect(finish.exitStatus == 0, "a seed after the kills completes")
        let store = try await OrderStore.open(location, settings: settings)
        #expect(try await store.reports.counts().total == 20_000)
        if case .broken(let seq, let why) = try await store.audit.verify() { Issue.record("audit chain broken at \(seq): \(why)") }
        await store.close()
    }
}
