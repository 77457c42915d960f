import OrderStore
import Presentation
import Terminal

/// `:stuck`: paid, undelivered orders past the threshold, oldest first, with their tries,
/// next retry and last error. `r` re-verifies the selected one, `R` the whole list.
public final class StuckScreen: ConsoleScreen {
    private(set) var items: [StuckOrder] = []
    private(set) var selected = 0
    private var top = 0
    /// R2: a sandbox answer in a production store is marked SBX.
    private(set) var isProduction = true
    static let limit = 500

    public init() {}

    var listing: Listing<StuckOrder> { OrderListings.stuck(storeIsProduction: isProduction) }

    public var title: String { "Stuck [\(items.count)\(items.count == Self.limit ? "+" : "")] oldest first" }

    var selectedOrder: Order? { items.indices.contains(selected) ? items[selected].order : nil }

    public func bindings(_ session: ConsoleSession) -> [KeyBinding] {
        var keys = [KeyBinding(.enter, action: "open")] + OrderActions.bindings(for: selectedOrder, session: session)
        if !session.readOnly { keys.append(KeyBinding(.character("R"), action: "re-verify all")) }
        return keys + [KeyBinding(.escape, action: "back"), KeyBinding(.character("?"), action: "help")]
    }

    public func load(_ session: ConsoleSession) async throws {
        isProduction = session.store.settings.isProduction
        items = try await session.store.stuckOrders(now: session.clock(), limit: Self.limit).items
        selected = min(selected, max(0, items.count - 1))
    }

    public func render(into screen: inout ScreenBuffer, area: Area, theme: Theme) {
        guard !items.isEmpty else {
            screen.write(listing.empty, row: area.top + 1, col: 2, style: theme[.checkPassed])
            return
        }
        let top = Table.scroll(top: self.top, selected: selected, visible: area.rows - 1)
        Table.draw(&screen, area: area, listing: listing, items: items, selected: selected, top: top, theme: theme)
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
            if let moved = Table.move(selected, by: key, count: items.count, page: area.rows - 2) {
                selected = moved
                top = Table.scroll(top: top, selected: selected, visible: area.rows - 1)
            }
        }
        return .none
    }
}
