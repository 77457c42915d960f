import OrderStore
import Terminal

/// `:stuck`: paid, undelivered orders past the threshold, oldest first, with their tries,
/// next retry and last error. `r` re-verifies the selected one, `R` the whole list.
public final class StuckScreen: ConsoleScreen {
    private(set) var items: [StuckOrder] = []
    private(set) var selected = 0
    private var top = 0
    static let limit = 500

    public init() {}

    public var title: String { "Stuck [\(items.count)\(items.count == Self.limit ? "+" : "")] oldest first" }

    var selectedOrder: Order? { items.indices.contains(selected) ? items[selected].order : nil }

    public func bindings(_ session: ConsoleSession) -> [KeyBinding] {
        var keys = [KeyBinding(.enter, action: "open")] + OrderActions.bindings(for: selectedOrder, session: session)
        if !session.readOnly { keys.append(KeyBinding(.character("R"), action: "re-verify all")) }
        return keys + [KeyBinding(.escape, action: "back"), KeyBinding(.character("?"), action: "help")]
    }

    public func load(_ session: ConsoleSession) async throws {
        items = try await session.store.stuckOrders(limit: Self.limit).items
        selected = min(selected, max(0, items.count - 1))
    }

    public func render(into screen: inout ScreenBuffer, area: Area, theme: Theme) {
        guard !items.isEmpty else {
            screen.write("Nothing is stuck.", row: area.top + 1, col: 2, style: theme[.checkPassed])
            return
        }
        let columns = [
            Column(title: "ORDER", width: 14), Column(title: "STATE", width: 16), Column(title: "AGE", width: 7),
            Column(title: "TRIES", width: 5), Column(title: "NEXT TRY", width: 8), Column(title: "LAST ERROR", width: 10, flexible: true),
        ]
        let rows: [[(String, Style?)]] = items.map { item in
            let next = item.order.needsOperator ? "operator" : item.nextRetryAt.map { String(Chrome.time($0).suffix(8)) } ?? "-"
            return [(item.order.orderId, nil), (item.order.state.rawValue, theme[.state(item.order.state)]), (Chrome.age(item.age), nil),
                    ("\(item.attempts)", nil), (next, item.order.needsOperator ? theme[.flashError] : theme[.muted]), (item.lastError ?? "", theme[.muted])]
        }
        top = Table.scroll(top: top, selected: selected, visible: area.rows - 1)
        Table.draw(&screen, area: area, columns: columns, rows: rows, selected: selected, top: top, theme: theme)
    }

    public func handle(_ key: Key, session: ConsoleSession, area: Area) async throws -> ScreenAction {
        if let action = OrderActions.handle(key, order: selectedOrder, session: session) { return action }
        switch key {
        case .character("R") where !session.readOnly:
            return OrderActions.reverifyAll(items.map(\.order.orderId), session: session)
        case .enter:
            guard let order = selectedOrder else { return .none }
            return .push(OrderDetailScreen(orderId: order.orderId))
        default:
            if let moved = Table.move(selected, by: key, count: items.count, page: area.rows - 2) { selected = moved }
        }
        return .none
    }
}
