import OrderDomain
import OrderStore
import Presentation
import Terminal

/// A page of presentation sections loaded from the store (the x-ray): read, scrolled,
/// refreshed, exported.
final class SectionsScreen: ConsoleScreen {
    let title: String
    private let fetch: (ConsoleSession) async throws -> [DetailSection]
    private var sections: [DetailSection] = []
    private var text = ScrollingText()

    init(title: String, fetch: @escaping (ConsoleSession) async throws -> [DetailSection]) {
        self.title = title
        self.fetch = fetch
    }

    /// `:xray OTID`, `x` on a subscription: one original transaction in time.
    static func xray(_ originalTransactionId: String) -> SectionsScreen {
        SectionsScreen(title: "X-ray \(originalTransactionId)") { XRayPresentation.sections(try await $0.store.subscriptions.xray(originalTransactionId)) }
    }

    func commands(_ session: ConsoleSession) -> [KeyCommand] { KeyCommand.reading }

    func load(_ session: ConsoleSession) async throws {
        text.changed()
        sections = try await fetch(session)
    }

    func lines(theme: Theme) -> [(String, Style)] { DetailText.lines(sections, theme: theme) }

    func render(into screen: inout ScreenBuffer, area: Area, theme: Theme) {
        text.render(into: &screen, area: area, theme: theme) { lines(theme: theme) }
    }

    func handle(_ key: Key, session: ConsoleSession, area: Area) async throws -> ScreenAction {
        _ = text.handle(key, area: area, theme: session.theme) { lines(theme: session.theme) }
        return .none
    }

    func export(theme: Theme) -> ScreenExport? { .of(lines: lines(theme: theme)) }
}
