import Terminal

/// `?`: the keys of the screen it was opened from and the keys that work everywhere,
/// generated from the same bindings the footer shows.
public final class HelpScreen: ConsoleScreen {
    let screenTitle: String
    let screenBindings: [KeyBinding]

    init(for screen: any ConsoleScreen) {
        screenTitle = screen.title
        screenBindings = screen.bindings
    }

    public var title: String { "Help · \(screenTitle)" }
    public var bindings: [KeyBinding] { [KeyBinding(.escape, .character("q"), action: "back")] }

    public func load(_ session: ConsoleSession) async throws {}

    public func render(into screen: inout ScreenBuffer, area: Area, theme: Theme) {
        var row = area.top
        func section(_ name: String, _ entries: [(String, String)]) {
            guard row < area.top + area.rows else { return }
            screen.write(name, row: row, col: 1, style: theme[.tableHeader])
            row += 1
            for (left, right) in entries where row < area.top + area.rows {
                screen.write(left, row: row, col: 3, maxWidth: 16, style: theme[.footerKey])
                screen.write(right, row: row, col: 20, style: theme[.row])
                row += 1
            }
            row += 1
        }
        section("This screen", screenBindings.map { ($0.label, $0.action) })
        section("Everywhere", ConsoleApp.globalBindings.map { ($0.label, $0.action) })
        section("Commands", ConsoleCommand.all.map { ($0.usage, $0.summary) })
    }

    public func handle(_ key: Key, session: ConsoleSession, area: Area) async throws -> ScreenAction {
        key == .character("q") ? .pop : .none
    }
}
