import OrderDomain
import OrderStore
import Presentation

/// The orders the home screen lists: one filter's rows, newest first, read a page at a time
/// by key (never OFFSET). The screen keeps where the selection is; this keeps what is loaded
/// and how more is read.
final class OrderPages {
    static let pageSize = 100

    let query: FilterQuery
    private(set) var orders: [Order] = []
    /// Where the next page starts; nil when every matching order is loaded.
    private(set) var next: OrderCursor?
    /// What Apple's order id led to, when the filter is one that no order's id matched.
    private(set) var appleFinding: AppleOrderFinding?
    /// What Google's order id led to, likewise: asked of Google once per filter.
    private(set) var googleFinding: GoogleOrderFinding?

    init(_ query: FilterQuery) { self.query = query }

    /// Reads again what is shown. A lookup reads its matches; an Apple or Google order id
    /// nothing matches lists the orders its purchases lead to, asked of the store once per
    /// filter, not on
    /// every refresh (an id Apple does not know would ask again forever). A list scrolled
    /// down reads a page from `firstShown` on: the rows scrolled past stay as they were, so a
    /// refresh costs the same at row 20 and at row 20,000.
    func reload(_ session: ConsoleSession, firstShown: Int) async throws {
        let store = session.store
        if let lookup = query.lookup {
            orders = try await store.orders.search(lookup.text, kind: lookup.kind, prefix: lookup.prefix)
            if orders.isEmpty, lookup.kind == .any, Orders.looksLikeAppleOrderId(lookup.text) {
                let finding = try await AppleOrderSearch.find(lookup.text, session: session, askingApple: appleFinding == nil)
                // A refresh that may not ask keeps what the first answer said.
                if case .found = finding { appleFinding = finding } else if appleFinding == nil { appleFinding = finding }
                if case .found(let invoice)? = appleFinding { orders = invoice.orders }
            }
            if orders.isEmpty, lookup.kind == .any, Orders.looksLikeGoogleOrderId(lookup.text) {
                if googleFinding == nil {
                    let google = session.playActions
                    googleFinding = try await store.orders.findGoogleOrder(lookup.text) { id in
                        guard let google else { return .failed(GoogleOrderWords.needsServiceAccount("finding Google's order ids")) }
                        return await google.googleOrder(id)
                    }
                }
                if case .orders(let found, let token)? = googleFinding {
                    // Read again on a refresh: the orders holding the token move on.
                    orders = try await store.orders.lookup(token, kind: .purchaseToken)
                    if orders.isEmpty { orders = found }
                }
            }
            next = nil
        } else if firstShown > 0, firstShown < orders.count {
            let page = try await store.orders.page(query.filter, after: OrderCursor(after: orders[firstShown - 1]), limit: Self.pageSize)
            orders = Array(orders[..<firstShown]) + page.items
            next = page.next
        } else {
            let page = try await store.orders.page(query.filter, limit: Self.pageSize)
            orders = page.items
            next = page.next
        }
    }

    /// The next page, read when the selection reaches the loaded end; nothing when all is loaded.
    func loadMore(_ store: OrderStore) async throws {
        guard let cursor = next else { return }
        let more = try await store.orders.page(query.filter, after: cursor, limit: Self.pageSize)
        orders += more.items
        next = more.next
    }
}
