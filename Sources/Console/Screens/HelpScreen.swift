import Terminal

/// `?`: the keys of the screen it was opened from, the keys that work everywhere and the
/// `:` commands, generated from the same bindings the footer shows. Scrolls with the arrows.
public final class HelpScreen: ConsoleScreen {
    let screenTitle: String
    let screenBindings: [KeyBinding]
    let notes: [(String, String)]
    let aliases: [String: String]
    private var text = ScrollingText()

    init(for screen: any ConsoleScreen, session: ConsoleSession) {
        screenTitle = screen.title
        screenBindings = screen.bindings(session)
        notes = session.notes
        aliases = session.aliases
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
        if !aliases.isEmpty { section("Aliases", aliases.sorted { $0.key < $1.key }.map { (":\($0.key)", $0.value) }) }
        if !notes.isEmpty { section("This session", notes) }
        return lines
    }

    public func render(into screen: inout ScreenBuffer, area: Area, theme: Theme) {
        text.draw(wrapped(theme: theme, area: area), into: &screen, area: area)
    }

    func wrapped(theme: Theme, area: Area) -> [(String, Style)] {
        // The key column as wide as its longest key (up to a third of the screen) and two
        // cells more; a longer key puts its text on the next line. Wrapped text stays in its
        // column. Titles in the header style.
        let all = lines
        let column = min(all.filter { !$0.2 }.map { TextWidth.of($0.0) }.max() ?? 0, max(8, area.cols / 3)) + 2
        var drawn: [(String, Style, hang: Int)] = []
        for (left, right, isTitle) in all {
            if isTitle {
                drawn.append((left, theme[.tableHeader], 0))
            } else if TextWidth.of(left) + 2 > column {
                drawn.append(("  " + left, theme[.row], 4))
                drawn.append((String(repeating: " ", count: 2 + column) + right, theme[.row], 2 + column))
            } else {
                drawn.append(("  " + TextWidth.fit(left, to: column) + right, theme[.row], 2 + column))
            }
        }
        return ScrollingText.wrap(drawn, area: area)
    }

    public func handle(_ key: Key, session: ConsoleSession, area: Area) async throws -> ScreenAction {
        _ = text.handle(key, area: area, count: wrapped(theme: session.theme, area: area).count)
        return .none
    }
}
