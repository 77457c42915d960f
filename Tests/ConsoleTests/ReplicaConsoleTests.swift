import Foundation
import OrderDomain
import OrderStore
import Presentation
import SyntheticData
import Terminal
import TestSupport
import Testing

@testable import Console

/// A studio points its consoles at a hot standby, so support's reads never load the primary.
@Suite("Consoles on a PostgreSQL replica", .needsPostgres, .takesTurns)
struct ReplicaConsoleTests {
    @Test(
        "A store opened on a hot standby reads what the primary wrote (later writes too, within seconds), says REPLICA and its lag in the console's header, makes everyone a viewer, and refuses an action saying to open the primary; the CLI reads there and serve refuses to start; the primary's header has no lag"
    )
    func consoleOnStandby() async throws {
        let primary = try await PostgresServer.dedicated()
        let url = try await primary.freshDatabaseURL()
        let settings = StoreSettings(bundleId: DemoCatalogue.bundleId)
        let store = try await OrderStore.open(.postgres(url: url), settings: settings)
        let support = Operator(name: "sam", role: .support)
        do {
            for product in DemoCatalogue.products { try await store.catalogue.upsert(product) }
            for id in ["r-1", "r-2"] { _ = try await store.paidOrder(id, account: "acct-r") }
            let waiting = try #require(try await store.orders.find("r-2"))
            try await store.orders.grant(orderId: "r-2", expectedVersion: waiting.version, by: support, reason: "ticket 1: paid")
            #expect(try await store.reports.counts().replicationLag == nil, "the primary has no lag to show")

            let standby = try await primary.standby()
            let database = try #require(url.split(separator: "/").last)
            let replica = try await OrderStore.open(.postgres(url: "\(standby.url)/\(database)"), settings: settings)
            do {
                #expect(replica.isReplica && replica.isReadOnly)
                #expect(try await replica.orders.find("r-2")?.state == .delivered)
                #expect(try await replica.orders.detail("r-2").grants.count == 1)
                // Written on the primary after the standby started: it streams over.
                try await store.orders.place(orderId: "r-3", accountId: "acct-r", productId: "coins_60")
                #expect(try await eventually(within: 20) { try await replica.orders.lookup("acct-r").count == 3 }, "the standby replays r-3")
                let lag = try #require(try await replica.reports.counts().replicationLag)
                #expect(lag >= 0 && lag < 60_000, "\(lag)")

                // Everyone is a viewer on a replica; an action says where to take it.
                let actor = try await replica.operators.actor(forUser: "sam")
                #expect(actor.role == .viewer)
                let stuck = try #require(try await replica.orders.find("r-1"))
                await #expect(throws: StoreError.onReplica(action: .grantOrders)) {
                    try await replica.orders.grant(orderId: "r-1", expectedVersion: stuck.version, by: support, reason: "ticket 2")
                }
                #expect(ErrorWords.text(StoreError.onReplica(action: .grantOrders)).contains("open the primary"))

                let terminal = MemoryTerminal(rows: 24, cols: 80)
                let app = ConsoleApp(session: ConsoleSession(store: replica, actor: actor, storeLabel: "replica"), device: terminal)
                await app.open()
                let header = try terminal.screenText().split(separator: "\n").prefix(2).joined(separator: "\n")
                #expect(header.contains("REPLICA") && header.contains("lag "), "\(header)")
                await app.command("order r-1")
                let page = try terminal.screenText()
                #expect(page.contains("Order r-1") && !page.contains(" g  grant"), "a viewer has no grant key: \(page)")

                // The CLI on the replica: it reads; an action and serve say to use the primary.
                let replicaURL = "\(standby.url)/\(database)"
                func cli(_ arguments: [String]) async throws -> ChildProcess.Finished {
                    try await ChildProcess.run(try Machine.requireBinary(), arguments + ["--db", replicaURL], errorsApart: true)
                }
                let shown = try await cli(["order", "show", "r-2"])
                #expect(shown.status == 0 && shown.output.contains("delivered"), "\(shown.output)\(shown.errors)")
                let granted = try await cli(["order", "grant", "r-1", "--reason", "ticket 3"])
                #expect(granted.status != 0 && granted.errors.contains("open the primary"), "\(granted.errors)")
                let served = try await cli(["serve", "--role", "worker"])
                #expect(served.status != 0 && served.errors.contains("serve needs the primary"), "\(served.errors)")
            } catch {
                await replica.close()
                throw error
            }
            await replica.close()
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }
}
