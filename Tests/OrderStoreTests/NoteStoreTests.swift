import Foundation
import OrderDomain
import TestSupport
import Testing

@testable import OrderStore

/// Support's notes on orders and accounts: kept as written with who and when,
/// read on the order's and the account's detail, audited; refused for a viewer, an empty or
/// overlong text, or an order or account the store does not know.
@Suite("Store: notes on orders and accounts")
struct NoteStoreTests {
    static let lin = Operator(name: "lin", role: .support)

    @Test(
        "A note on an order and one on its account show on their details oldest first with author and time, and each is audited with its text; a viewer, an empty note, 2001 characters or an unknown id are refused and keep nothing",
        arguments: Backend.all)
    func notes(backend: Backend) async throws {
        try await withStore(backend) { store in
            try await store.orders.place(orderId: "n-1", accountId: "player-n", productId: "coins_60", at: t0)
            let hostile = "player says \u{1B}]0;pwned\u{07} 充值没到账 \u{1B}[2J"
            try await store.notes.add(to: .order("n-1"), text: "bank statement in ticket 881", by: Self.lin, at: t0 + 1)
            try await store.notes.add(to: .order("n-1"), text: hostile, by: Operator(name: "ada", role: .admin), at: t0 + 2)
            try await store.notes.add(to: .account("player-n"), text: "plays on two accounts, see p-2", by: Self.lin, at: t0 + 3)

            let order = try await store.orders.detail("n-1")
            #expect(order.notes.map(\.text) == ["bank statement in ticket 881", hostile], "kept as written, oldest first")
            #expect(order.notes.map(\.author) == ["lin", "ada"] && order.notes.first?.at == t0 + 1)
            #expect(try await store.accounts.detail("player-n").notes.map(\.text) == ["plays on two accounts, see p-2"])
            #expect(try await store.notes.list(on: .account("player-n")).count == 1)
            let audited = try await store.audit.entries().filter { $0.action == .noteAdd }
            #expect(Set(audited.map(\.target)) == [.order("n-1"), .account("player-n")] && audited.contains { $0.reason == hostile })

            await #expect(throws: StoreError.forbidden(action: .writeNotes, role: .viewer)) {
                try await store.notes.add(to: .order("n-1"), text: "x", by: Operator(name: "vic", role: .viewer))
            }
            await #expect(throws: StoreError.reasonRequired(action: .writeNotes)) {
                try await store.notes.add(to: .order("n-1"), text: "  ", by: Self.lin)
            }
            await #expect(throws: StoreError.self) {
                try await store.notes.add(to: .order("n-1"), text: String(repeating: "x", count: Note.maxLength + 1), by: Self.lin)
            }
            await #expect(throws: StoreError.notFound(kind: .order, id: "n-404")) {
                try await store.notes.add(to: .order("n-404"), text: "lost", by: Self.lin)
            }
            await #expect(throws: StoreError.notFound(kind: .account, id: "nobody")) {
                try await store.notes.add(to: .account("nobody"), text: "lost", by: Self.lin)
            }
            #expect(try await store.orders.detail("n-1").notes.count == 2, "nothing refused was kept")
        }
    }
}
