import OrderDomain
import OrderStore
import Presentation
import Terminal

/// `v`: what Apple said about an order, decoded (``ReceiptPresentation``: what
/// `iapdesk order receipt` prints). `t` shows the raw text.
public final class ReceiptScreen: ConsoleScreen {
    let orderId: String
    private var page = ReceiptPresentation.Page(raw: "", sections: [])
    private var showRaw = false
    private var text = ScrollingText()
    /// What the page was decoded from: the refresh every 2 s reads the order again, but
    /// decodes and verifies signatures again only when Apple's answer or the verdict changed.
    private var decodedFrom: [String]?

    public init(orderId: String) { self.orderId = orderId }

    public var title: String { "Receipt · \(orderId)" + (showRaw ? " · raw" : "") }

    public func commands(_ session: ConsoleSession) -> [KeyCommand] {
        [
            KeyCommand(KeyBinding(.escape, action: "back")),
            KeyCommand(KeyBinding(.character("t"), action: showRaw ? "decoded" : "raw")) {
                self.showRaw.toggle()
                self.text.reset()
                self.text.changed()
                return .none
            },
            KeyCommand(KeyBinding(.up, .down, action: "scroll")), KeyCommand(KeyBinding(.character("?"), action: "help")),
        ]
    }

    public func load(_ session: ConsoleSession) async throws {
        let detail = try await session.store.orders.detail(orderId)
        let input = ReceiptPresentation.input(of: detail)
        let key = [
            input?.source ?? "", input?.text ?? "", detail.latestVerdict.map { "\($0)" } ?? "", detail.order.transactionId ?? "",
        ]
        guard key != decodedFrom else { return }
        decodedFrom = key
        text.changed()
        page = await ReceiptPresentation.read(detail, trust: session.trust, answers: session.answers)
    }

    /// What the screen shows: the decoded receipt, or its raw text after `t`.
    func shown(theme: Theme) -> [(String, Style)] {
        showRaw ? [(page.raw, theme[.row])] : DetailText.lines(page.sections, theme: theme)
    }

    public func render(into screen: inout ScreenBuffer, area: Area, theme: Theme) {
        text.render(into: &screen, area: area, theme: theme) { shown(theme: theme) }
    }

    public func handle(_ key: Key, session: ConsoleSession, area: Area) async throws -> ScreenAction {
        _ = text.handle(key, area: area, theme: session.theme) { shown(theme: session.theme) }
        return .none
    }
}
