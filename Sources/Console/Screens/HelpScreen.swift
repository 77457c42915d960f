import Terminal

/// `?`: the keys of the screen it was opened from, the keys that work everywhere and the
/// `:` commands, generated from the same bindings the footer shows. Scrolls with the arrows.
public final class HelpScreen: ConsoleScreen {
    let screenTitle: String
    let screenBindings: [KeyBinding]
    let notes: [(String, String)]
    private var text = ScrollingText()

    init(for screen: any ConsoleScreen, session: ConsoleSession) {
        screenTitle = screen.title
        screenBindings = screen.bindings(session)
        notes = session.notes
    }

    public var title: String { "Help · \(screenTitle)" }

    public func bindings(_ session: ConsoleSession) -> [KeyBinding] {
        [KeyBinding(.escape, .character("q"), action: "back"), KeyBinding(.up, .down, action: "scroll")]
    }

    public func load(_ session: ConsoleSession) async throws {}

    /// (key column, text, is a section title)
    var lines: [(String, String, Bool)] {
        var lines: [(String, String, Bool)] = []
        func section(_ name: String, _ entries: [(String, String)]) {
            lines.append((name, "", true))
            lines += entries.map { ($0.0, $0.1, false) }
            lines.append(("", "", false))
        }
        section("This screen", screenBindings.map { ($0.label, $0.action) })
        section("Everywhere", ConsoleApp.globalBindings.map { ($0.label, $0.action) })
        section("Commands", ConsoleCommand.all.map { ($0.usage, $0.summary) })
        if !notes.isEmpty { section("This session", notes) }
        return lines
    }

    public func render(into screen: inout ScreenBuffer, area: Area, theme: Theme) {
        // Key column padded so the descriptions line up; titles in the header style.
        text.draw(lines.map { left, right, isTitle in
            isTitle ? (left, theme[.tableHeader]) : ("  " + left.padding(toLength: 18, withPad: " ", startingAt: 0) + right, theme[.row])
        }, into: &screen, area: area)
    }

    public func handle(_ key: Key, session: ConsoleSession, area: Area) async throws -> ScreenAction {
        _ = text.handle(key, area: area)
        return .none
    }
}
