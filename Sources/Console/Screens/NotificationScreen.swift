import OrderDomain
import OrderStore
import Presentation
import SafeText
import Terminal

/// One App Store Server Notification: its signature verdict, what it says, and what
/// applying it did; `o` opens the order that claims its transaction.
final class NotificationScreen: ConsoleScreen {
    let id: Int64
    private var record: NotificationRecord?
    private var orderId: String?
    private var originalTransactionId: String? { record?.facts.transaction?.originalTransactionId }
    private var text = ScrollingText()

    init(id: Int64) { self.id = id }

    var title: String { "Notification #\(id)" + (record.map { " \($0.facts.kind)" } ?? "") }

    func commands(_ session: ConsoleSession) -> [KeyCommand] {
        [
            KeyCommand(KeyBinding(.character("o"), action: "order"), available: orderId != nil) {
                self.orderId.map { .push(OrderDetailScreen(orderId: $0)) } ?? .none
            },
            KeyCommand(KeyBinding(.character("X"), action: "x-ray of its purchase"), available: originalTransactionId != nil) {
                self.originalTransactionId.map { .push(SectionsScreen.xray($0)) } ?? .none
            },
            KeyCommand(KeyBinding(.escape, action: "back")), KeyCommand(KeyBinding(.character("?"), action: "help")),
        ]
    }

    func load(_ session: ConsoleSession) async throws {
        text.changed()
        let record = try await session.store.notifications.record(id: id)
        self.record = record
        if let tid = record.facts.transaction?.transactionId {
            orderId = try await session.store.orders.lookup(tid).first { $0.transactionId == tid }?.orderId
        }
    }

    /// The notification's fields and raw payload.
    func lines(theme: Theme) -> [(String, Style)] {
        guard let record else { return [] }
        let fields = NotificationPresentation.fields(record)
        let width = (fields.map { TextWidth.of($0.name) }.max() ?? 0) + 2
        return
            fields.map { field in
                (
                    TextWidth.fit(field.name, to: width) + field.value,
                    field.name == "signature" && record.rejection != nil ? theme[.flashError] : theme[.row]
                )
            } + [("", theme[.row]), ("raw signed payload (\(record.raw.utf8.count) bytes):", theme[.muted]), (record.raw, theme[.muted])]
    }

    func render(into screen: inout ScreenBuffer, area: Area, theme: Theme) {
        text.render(into: &screen, area: area, theme: theme) { lines(theme: theme) }
    }

    func handle(_ key: Key, session: ConsoleSession, area: Area) async throws -> ScreenAction {
        _ = text.handle(key, area: area, theme: session.theme) { lines(theme: session.theme) }
        return .none
    }
}
