import Terminal

/// `?`: the keys of the screen it was opened from, the keys that work everywhere and the
/// `:` commands, generated from the same bindings the footer shows. Scrolls with the arrows.
public final class HelpScreen: ConsoleScreen {
    let screenTitle: String
    let screenBindings: [KeyBinding]
    private var scroll = 0

    init(for screen: any ConsoleScreen, session: ConsoleSession) {
        screenTitle = screen.title
        screenBindings = screen.bindings(session)
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
        return lines
    }

    public func render(into screen: inout ScreenBuffer, area: Area, theme: Theme) {
        let all = lines
        scroll = max(0, min(scroll, all.count - area.rows))
        for (offset, (left, right, isTitle)) in all.dropFirst(scroll).prefix(area.rows).enumerated() {
            let row = area.top + offset
            if isTitle {
                screen.write(left, row: row, col: 1, style: theme[.tableHeader])
            } else {
                screen.write(left, row: row, col: 3, maxWidth: 16, style: theme[.footerKey])
                screen.write(right, row: row, col: 20, style: theme[.row])
            }
        }
    }

    public func handle(_ key: Key, session: ConsoleSession, area: Area) async throws -> ScreenAction {
        switch key {
        case .down, .character("j"): scroll += 1
        case .up, .character("k"): scroll = max(0, scroll - 1)
        case .pageDown: scroll += max(1, area.rows - 1)
        case .pageUp: scroll = max(0, scroll - max(1, area.rows - 1))
        default: break
        }
        return .none
    }
}
