import Foundation
import OrderDomain
import OrderStore
import SyntheticData
import TestSupport
import Testing

@testable import IAPDeskApp
@testable import IAPDeskCLI

/// `iapdesk note` run as the built binary, as an operator types it: a note with escape
/// sequences in it is kept as written and printed escaped, in `note list` and `order show`.
@Suite("CLI: notes", .needsBinary)
struct NoteCommandTests {
    @Test("note add then order show, note list and account show print the note with its author, escaped; a note on an unknown order fails and says so")
    func notes() async throws {
        let db = Scratch.url("iapdesk-notes-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) } }
        let store = try await OrderStore.open(.sqlite(path: db), settings: StoreSettings(bundleId: DemoCatalogue.bundleId))
        for product in DemoCatalogue.products { try await store.catalogue.upsert(product) }
        try await store.orders.place(orderId: "n-7", accountId: "player-7", productId: "coins_60")
        try await SimulatorFiles.makeAdminIfNew(store)
        await store.close()

        let (added, addOut, addErr) = try await CLIErrorTests.run(["note", "add", "order", "n-7", "ticket 881 \u{1b}]0;pwned\u{07} 充值", "--db", db])
        #expect(added == 0 && addOut.contains("saved on order n-7"), "\(addOut)\(addErr)")
        let (_, shown, _) = try await CLIErrorTests.run(["order", "show", "n-7", "--db", db])
        #expect(shown.contains("Notes") && shown.contains(#"ticket 881 \x1B]0;pwned\x07 充值"#) && !shown.contains("\u{1b}"), "\(shown)")
        let (_, listed, _) = try await CLIErrorTests.run(["note", "list", "order", "n-7", "--db", db])
        #expect(listed.contains("\(OperatorIdentity.current): ticket 881"), "\(listed)")
        // The account screen on the command line: a note on the account, its order in its state.
        #expect(try await CLIErrorTests.run(["note", "add", "account", "player-7", "asked twice \u{1b}[2J", "--db", db]).0 == 0)
        let (_, account, _) = try await CLIErrorTests.run(["account", "show", "player-7", "--db", db])
        #expect(account.hasPrefix("account player-7") && account.contains(#"asked twice \x1B[2J"#) && !account.contains("\u{1b}"), "\(account)")
        #expect(
            account.contains("Orders (1)") && account.contains("n-7             coins_60     pending_payment") && account.contains("Grants (0)"), "\(account)")
        let (_, operators, _) = try await CLIErrorTests.run(["operator", "list", "--db", db])
        #expect(operators.contains("NAME") && operators.contains(OperatorIdentity.current) && operators.contains("admin"), "\(operators)")
        let (failed, _, error) = try await CLIErrorTests.run(["note", "add", "order", "n-404", "lost", "--db", db])
        #expect(failed != 0 && error.contains("n-404"), "\(error)")
    }
}
