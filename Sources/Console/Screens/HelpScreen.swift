import SafeText
import Terminal

/// `?`: every key of the screen it was opened from, from the same table the footer and the
/// key handling read, with who may use it and whether it applies now; then the keys that
/// work everywhere and the `:` commands. Scrolls with the arrows.
public final class HelpScreen: ConsoleScreen {
    let screenTitle: String
    /// (keys, what it does, who may and whether it applies now)
    let screenKeys: [(String, String)]
    let notes: [(String, String)]
    let aliases: [String: String]
    private var text = ScrollingText()

    init(for screen: any ConsoleScreen, session: ConsoleSession) {
        screenTitle = screen.title
        screenKeys = screen.commands(session).map { row in
            let who =
                switch row.who {
                case .viewer: ""
                case .support: " · support, admin"
                case .admin: " · admin"
                }
            let now = row.usable(by: session) ? "" : row.available && session.actor.role < row.who ? " (not your role)" : " (not here now)"
            return (row.binding.label, row.binding.action + who + now)
        }
        notes = session.notes
        aliases = session.aliases
    }

    /// `?` on help itself opens nothing more.
    public func help(_ session: ConsoleSession) -> (any ConsoleScreen)? { nil }

    public var title: String { "Help · \(screenTitle)" }

    public func commands(_ session: ConsoleSession) -> [KeyCommand] {
        [KeyCommand(KeyBinding(.escape, .character("q"), action: "back")), KeyCommand(KeyBinding(.up, .down, action: "scroll"))]
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
        section("This screen", screenKeys)
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
