import OrderStore
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
        [KeyBinding(.escape, action: "back")] + OrderActions.bindings(for: detail?.order, session: session)
            + [KeyBinding(.up, .down, action: "scroll"), KeyBinding(.character("?"), action: "help")]
    }

    public func load(_ session: ConsoleSession) async throws {
        detail = try await session.store.orderDetail(orderId)
        isProduction = session.store.settings.isProduction
    }

    /// The lines of the screen, each with its style.
    func lines(theme: Theme) -> [(String, Style)] {
        guard let d = detail else { return [] }
        let o = d.order
        var lines: [(String, Style)] = []
        func field(_ name: String, _ value: String, _ style: Style? = nil) {
            lines.append((name.padding(toLength: 13, withPad: " ", startingAt: 0) + value, style ?? theme[.row]))
        }
        field("order", o.orderId)
        field("account", o.accountId)
        field("product", o.productId + (d.product.map { " — \($0.displayName)" } ?? ""))
        field("state", o.state.rawValue, theme[.state(o.state)])
        for badge in o.badges(storeIsProduction: isProduction) { field("", badge, theme[.flashError]) }
        field("environment", o.environment?.rawValue ?? "-")
        field("transaction", (o.transactionId ?? "-") + "  original " + (o.originalTransactionId ?? "-"))
        field("attempts", "\(o.attempts), next retry \(Chrome.time(o.nextRetryAt))")
        if let error = o.lastError { field("last error", error, theme[.flashError]) }
        // The last hop: does the game know? (issue 14)
        if let told = d.gameTold { field("game told", told.text, told.confirmed ? theme[.row] : theme[.flashError]) }
        field("version", "\(o.version) by \(o.updatedBy) at \(Chrome.time(o.stateChangedAt))", theme[.muted])
        lines.append(("", theme[.row]))
        lines.append(("Timeline", theme[.tableHeader]))
        for event in d.timeline {
            let style: Style = switch event.kind {
            case .attempt(outcome: .valid), .grant: theme[.checkPassed]
            case .attempt(outcome: .final), .revoke, .notification(outcome: .rejected), .gameEvent(confirmed: false): theme[.checkFailed]
            case .attempt(outcome: .retryable): theme[.state(.verifyRetry)]
            case .audit: theme[.muted]
            default: theme[.row]
            }
            lines.append(("\(Chrome.time(event.at))  \(event.text)", style))
        }
        return lines
    }

    public func render(into screen: inout ScreenBuffer, area: Area, theme: Theme) {
        text.draw(lines(theme: theme), into: &screen, area: area)
    }

    public func handle(_ key: Key, session: ConsoleSession, area: Area) async throws -> ScreenAction {
        // Actions are offered (and taken) only as the footer lists them for this operator.
        if let action = OrderActions.handle(key, order: detail?.order, session: session) { return action }
        _ = text.handle(key, area: area)
        return .none
    }
}
