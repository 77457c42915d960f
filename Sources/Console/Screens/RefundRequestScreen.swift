import OrderDomain
import OrderStore
import Presentation
import Terminal

/// One of Apple's refund requests with the evidence an answer rests on (what `iapdesk
/// refunds show` prints); `a` answers it, `o` opens its order.
final class RefundRequestScreen: ConsoleScreen {
    let id: Int64
    private var request: RefundRequest?
    private var now: Millis = 0
    private var text = ScrollingText()

    init(id: Int64) { self.id = id }

    var title: String { "Refund request #\(id)" }

    func commands(_ session: ConsoleSession) -> [KeyCommand] {
        [
            KeyCommand(RefundActions.binding, who: .support, available: request?.isOpen(at: now) == true) {
                self.request.map { RefundActions.answer($0, session: session) } ?? .none
            },
            KeyCommand(KeyBinding(.character("o"), action: "order"), available: request?.order != nil) {
                self.request?.order.map { .push(OrderDetailScreen(orderId: $0.orderId)) } ?? .none
            },
        ] + KeyCommand.reading
    }

    func load(_ session: ConsoleSession) async throws {
        text.changed()
        now = session.clock()
        request = try await session.store.refunds.request(id)
    }

    func lines(theme: Theme) -> [(String, Style)] {
        guard let request else { return [] }
        return DetailText.lines(RefundRequestPresentation.sections(request, now: now), theme: theme)
    }

    func render(into screen: inout ScreenBuffer, area: Area, theme: Theme) {
        text.render(into: &screen, area: area, theme: theme) { lines(theme: theme) }
    }

    func handle(_ key: Key, session: ConsoleSession, area: Area) async throws -> ScreenAction {
        _ = text.handle(key, area: area, theme: session.theme) { lines(theme: session.theme) }
        return .none
    }
}
