import OrderDomain
import OrderStore
import Presentation
import Terminal

/// One order: its fields, then its timeline (receipts, calls to Apple with the status and
/// its meaning, state changes, grants, audit entries). Scrolls with the arrows.
public final class OrderDetailScreen: ConsoleScreen {
    public let orderId: String
    private(set) var detail: OrderDetail?
    private var text = ScrollingText()

    public init(orderId: String) { self.orderId = orderId }

    public var title: String { "Order \(orderId)" + (detail.map { " · \($0.order.state.rawValue)" } ?? "") }

    /// R2: a sandbox answer in a production store is flagged.
    private var isProduction = true
    private var showsApp = false

    /// Back first, the order's actions and reading keys, jumps to what the order names (the
    /// order holding a replayed purchase, R7; the account owning a disputed subscription, R8),
    /// a note, scrolling; then its purchase elsewhere: the x-ray, Apple's notifications about
    /// it, the events the game was sent.
    public func commands(_ session: ConsoleSession) -> [KeyCommand] {
        let order = detail?.order
        return [KeyCommand(KeyBinding(.escape, action: "back"))] + OrderActions.commands(for: order, session: session) + [
            KeyCommand(KeyBinding(.character("h"), action: "holding order"), available: detail?.replayHolder != nil) {
                self.detail?.replayHolder.map { .push(OrderDetailScreen(orderId: $0)) } ?? .none
            },
            KeyCommand(KeyBinding(.character("w"), action: "owner"), available: detail?.subscriptionOwner != nil) {
                self.detail?.subscriptionOwner.map { .push(AccountScreen(accountId: $0)) } ?? .none
            },
            NoteActions.command(on: order.map { .order($0.orderId) }, session: session),
            KeyCommand(KeyBinding(.up, .down, action: "scroll")), KeyCommand(KeyBinding(.character("?"), action: "help")),
            // Where else the order's purchase shows: offered after the rest, listed in ? always.
            KeyCommand(KeyBinding(.character("X"), action: "x-ray"), available: order?.originalTransactionId != nil) {
                order?.originalTransactionId.map { .push(SectionsScreen.xray($0)) } ?? .none
            },
            KeyCommand(KeyBinding(.character("N"), action: "notifications"), available: order?.originalTransactionId != nil) {
                order?.originalTransactionId.map { .push(Lists.notifications(purchase: $0)) } ?? .none
            },
            KeyCommand(KeyBinding(.character("E"), action: "events"), available: order != nil) {
                order.map { .push(Lists.events(order: $0.orderId)) } ?? .none
            },
        ]
    }

    public func load(_ session: ConsoleSession) async throws {
        text.changed()
        detail = try await session.store.orders.detail(orderId)
        isProduction = session.store.settings.isProduction
        showsApp = session.store.settings.apps.count > 1
    }

    /// The lines of the screen, each with its style: what `iapdesk order show` prints.
    func lines(theme: Theme) -> [(String, Style)] {
        guard let detail else { return [] }
        return DetailText.lines(OrderDetailPresentation.sections(detail, storeIsProduction: isProduction, showsApp: showsApp), theme: theme)
    }

    public func render(into screen: inout ScreenBuffer, area: Area, theme: Theme) {
        text.render(into: &screen, area: area, theme: theme) { lines(theme: theme) }
    }

    public func handle(_ key: Key, session: ConsoleSession, area: Area) async throws -> ScreenAction {
        _ = text.handle(key, area: area, theme: session.theme) { lines(theme: session.theme) }
        return .none
    }
}
