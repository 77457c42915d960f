import OrderDomain
import OrderStore
import Presentation
import Terminal

/// The home screen: orders newest first, paged by key as the selection moves down, narrowed
/// by `/` (`state:`, `product:`, `acct:`, `env:`, or any id: exact matches first, then by prefix).
public final class OrdersScreen: ConsoleScreen {
    private var pages = OrderPages(FilterQuery(""))
    var orders: [Order] { pages.orders }
    private(set) var filterText = ""
    private(set) var selected = 0
    private var top = 0
    /// R2: a sandbox answer in a production store is marked SBX.
    private(set) var isProduction = true

    public init() {}

    /// The orders of one account or one subscription, opened from its screen: a table to
    /// move through and open, narrowed without parsing the id (ids may hold spaces).
    init(label: String, query: FilterQuery) {
        filterText = label
        pages = OrderPages(query)
    }

    static func ofAccount(_ accountId: String) -> OrdersScreen {
        var query = FilterQuery("")
        query.filter.accountId = accountId
        return OrdersScreen(label: "acct:\(accountId)", query: query)
    }

    static func ofSubscription(_ originalTransactionId: String) -> OrdersScreen {
        var query = FilterQuery("")
        query.lookup = FilterQuery.Lookup(text: originalTransactionId, kind: .originalTransaction, prefix: false)
        return OrdersScreen(label: "otid:\(originalTransactionId)", query: query)
    }

    public var title: String {
        let shown = filterText.isEmpty ? "all" : filterText
        return "Orders [\(shown)] \(orders.count)\(pages.next == nil ? "" : "+")"
    }

    public var filter: String? { filterText }

    public func commands(_ session: ConsoleSession) -> [KeyCommand] {
        let order = selectedOrder
        return [
            KeyCommand(KeyBinding(.enter, action: "open"), available: order != nil) { order.map { .push(OrderDetailScreen(orderId: $0.orderId)) } ?? .none }
        ]
            + OrderActions.commands(for: order, session: session)
            + [PlayAttachActions.command(for: pages.googleFinding, googleOrderId: filterText, session: session)].compactMap { $0 } + [
                KeyCommand(KeyBinding(.character("/"), action: "filter")), KeyCommand(KeyBinding(.character(":"), action: "command")),
                KeyCommand(KeyBinding(.character("?"), action: "help")), KeyCommand(KeyBinding(.character("q"), action: "quit")),
            ]
    }

    public var selectedOrder: Order? { orders.indices.contains(selected) ? orders[selected] : nil }

    public func load(_ session: ConsoleSession) async throws {
        let keep = selectedOrder?.orderId
        isProduction = session.store.settings.isProduction
        try await pages.reload(session, firstShown: top)
        if let keep, let index = orders.firstIndex(where: { $0.orderId == keep }) { selected = index }
        selected = min(selected, max(0, orders.count - 1))
    }

    public func apply(filter: String, session: ConsoleSession) async throws {
        filterText = filter
        pages = OrderPages(FilterQuery(filter))
        selected = 0
        top = 0
        try await load(session)
    }

    /// Words that meant nothing are said once the filter is whole, not while it is typed.
    /// An Apple or Google order id no order's id matched says where it led; an Apple
    /// invoice with a purchase no order claims opens, where that purchase is attached.
    public func afterFilter() -> [ScreenAction] {
        var actions: [ScreenAction] = []
        let problems = pages.query.problems
        if !problems.isEmpty { actions.append(.flash(problems.joined(separator: "; "), isError: true)) }
        if let finding = pages.googleFinding {
            let (text, isError) = GoogleOrderWords.summary(finding, id: filterText)
            actions.append(.flash(GoogleOrderWords.nextStep(finding).map { "\(text) — \($0)" } ?? text, isError: isError))
        }
        if let finding = pages.appleFinding {
            if case .found(let invoice) = finding, invoice.purchases.contains(where: { if case .claimed = $0.lead { false } else { true } }) {
                actions.append(.push(Lists.invoice(invoice.appleOrderId)))
            }
            let (text, isError) = AppleInvoicePresentation.summary(finding)
            actions.append(.flash(text, isError: isError))
        }
        return actions
    }

    public func render(into screen: inout ScreenBuffer, area: Area, theme: Theme) {
        // Render reads state and changes none of it; a resize is followed here for this frame.
        let top = Table.scroll(top: self.top, selected: selected, visible: area.rows - 1)
        if orders.isEmpty {
            screen.write(filterText.isEmpty ? "No orders." : "Nothing matches \(filterText).", row: area.top + 1, col: 2, style: theme[.muted])
            return
        }
        Table.draw(
            &screen, area: area, listing: OrderListings.orders(storeIsProduction: isProduction, for: orders), items: orders, selected: selected, top: top,
            theme: theme)
    }

    public func handle(_ key: Key, session: ConsoleSession, area: Area) async throws -> ScreenAction {
        guard let moved = Table.move(selected, by: key, count: orders.count, page: area.rows - 2) else { return .none }
        selected = moved
        top = Table.scroll(top: top, selected: selected, visible: area.rows - 1)
        // Paging by key: the next page comes when the selection reaches the loaded end.
        if selected >= orders.count - 1 { try await pages.loadMore(session.store) }
        selected = max(0, min(selected, orders.count - 1))
        return .none
    }
}
