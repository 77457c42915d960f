import ArgumentParser
import Console
import Foundation
import SafeText
import Terminal

/// `iapdesk terminal-check`: what the console will see of this terminal (size, colours,
/// UTF-8, wide characters, keys) and a theme's styles, for an operator whose SSH session
/// draws oddly or who is choosing a theme. Keys are echoed by name; q or Ctrl-C leaves.
struct TerminalCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "terminal-check", abstract: "Show what iapdesk sees of this terminal and a theme's styles; q quits.")

    @Option(help: "Theme name or .toml path (default: console.theme / IAPDESK_THEME).") var theme: String?
    @Option(help: "Configuration file.") var config: String?

    func run() throws {
        let name = try theme ?? Configuration.load(path: config).theme
        let (palette, themeError) = ThemeLoader.loadOrFallback(name)
        let terminal = try NcursesTerminal.start()
        defer { terminal.stop() }
        var lastKey = "(press a key)"
        while true {
            let (rows, cols) = terminal.size
            var screen = ScreenBuffer(rows: rows, cols: cols)
            screen.fill(row: 0, style: Style(foreground: .indexed(15), background: .indexed(24), attributes: .bold))
            screen.write(" iapdesk terminal check", row: 0, col: 0, style: Style(foreground: .indexed(15), background: .indexed(24), attributes: .bold))
            let lines = [
                "size: \(cols)×\(rows)   colours: \(terminal.depth.rawValue)   UTF-8: \(terminal.forcedUTF8 ? "forced C.UTF-8 (no UTF-8 locale)" : "yes")",
                "wide: 订单 月度会员 金币 ✓   combining: café",
                "hostile: acct\u{1B}[2J\u{202E}nimda",
                "key: \(lastKey)",
            ]
            for (index, line) in lines.enumerated() { screen.write(line, row: index + 2, col: 1) }
            screen.write("theme: \(palette.name)" + (themeError.map { " (fallback: \($0))" } ?? ""), row: 7, col: 1)
            var col = 1, row = 8
            for role in ThemeRole.allCases where row < rows - 1 {
                let width = TextWidth.of(role.name) + 1
                if col + width >= cols { (col, row) = (1, row + 1) }
                guard row < rows - 1 else { break }
                screen.write(role.name, row: row, col: col, style: palette[role])
                col += width
            }
            screen.fill(row: rows - 1, style: Style(attributes: .reverse))
            screen.write(" q quit", row: rows - 1, col: 0, style: Style(attributes: .reverse))
            terminal.present(screen)
            guard let key = terminal.readKey(timeoutMilliseconds: 1000) else { continue }
            if key == .character("q") || key == .control("c") { return }
            if key == .resize { terminal.invalidate() }
            lastKey = key.label
        }
    }
}
