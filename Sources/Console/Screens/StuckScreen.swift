import OrderDomain
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
    /// When the rows were read: the time left before Google refunds is said from it.
    private var readAt: Millis = .now()
    static let limit = 500

    public init() {}

    var listing: Listing<StuckOrder> { OrderListings.stuck(storeIsProduction: isProduction, for: items, now: readAt) }

    public var title: String { "Stuck [\(items.count)\(items.count == Self.limit ? "+" : "")] oldest first" }

    var selectedOrder: Order? { items.indices.contains(selected) ? items[selected].order : nil }

    public func commands(_ session: ConsoleSession) -> [KeyCommand] {
        let order = selectedOrder
        return [
            KeyCommand(KeyBinding(.enter, action: "open"), available: order != nil) { order.map { .push(OrderDetailScreen(orderId: $0.orderId)) } ?? .none }
        ]
            + OrderActions.commands(for: order, session: session) + [
                KeyCommand(KeyBinding(.character("R"), action: "re-verify all"), who: .support) {
                    OrderActions.reverifyAll(self.items.map(\.order.orderId), session: session)
                },
                KeyCommand(KeyBinding(.escape, action: "back")), KeyCommand(KeyBinding(.character("?"), action: "help")),
            ]
    }

    public func load(_ session: ConsoleSession) async throws {
        isProduction = session.store.settings.isProduction
        readAt = session.clock()
        items = try await session.store.reports.stuck(now: readAt, limit: Self.limit).items
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
        if let moved = Table.move(selected, by: key, count: items.count, page: area.rows - 2) {
            selected = moved
            top = Table.scroll(top: top, selected: selected, visible: area.rows - 1)
        }
        return .none
    }
}
