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

    public func bindings(_ session: ConsoleSession) -> [KeyBinding] {
        [KeyBinding(.escape, action: "back")] + OrderActions.bindings(for: detail?.order, session: session) + jumps
            + (session.readOnly || detail == nil ? [] : [NoteActions.binding])
            + [KeyBinding(.up, .down, action: "scroll"), KeyBinding(.character("?"), action: "help")]
    }

    /// Keys to what the order names: the order holding a replayed purchase (R7), the
    /// account owning a disputed subscription (R8).
    private var jumps: [KeyBinding] {
        (detail?.replayHolder == nil ? [] : [KeyBinding(.character("h"), action: "holding order")])
            + (detail?.subscriptionOwner == nil ? [] : [KeyBinding(.character("w"), action: "owner")])
    }

    public func load(_ session: ConsoleSession) async throws {
        detail = try await session.store.orderDetail(orderId)
        isProduction = session.store.settings.isProduction
    }

    /// The lines of the screen, each with its style: what `iapdesk order show` prints.
    func lines(theme: Theme) -> [(String, Style)] {
        guard let detail else { return [] }
        return DetailText.lines(OrderDetailPresentation.sections(detail, storeIsProduction: isProduction), theme: theme)
    }

    public func render(into screen: inout ScreenBuffer, area: Area, theme: Theme) {
        text.draw(ScrollingText.wrap(lines(theme: theme), area: area), into: &screen, area: area)
    }

    public func handle(_ key: Key, session: ConsoleSession, area: Area) async throws -> ScreenAction {
        // Actions are offered (and taken) only as the footer lists them for this operator.
        if let action = OrderActions.handle(key, order: detail?.order, session: session) { return action }
        switch key {
        case .character("h"): if let holder = detail?.replayHolder { return .push(OrderDetailScreen(orderId: holder)) }
        case .character("w"): if let owner = detail?.subscriptionOwner { return .push(AccountScreen(accountId: owner)) }
        case .character("n"): if !session.readOnly, let order = detail?.order { return NoteActions.write(on: .order(order.orderId), session: session) }
        default: break
        }
        _ = text.handle(key, area: area, count: ScrollingText.wrap(lines(theme: session.theme), area: area).count)
        return .none
    }
}
