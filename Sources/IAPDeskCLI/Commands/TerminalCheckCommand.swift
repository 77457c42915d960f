import ArgumentParser
import Foundation
import Terminal

/// `iapdesk terminal-check`: what the console will see of this terminal (size, colours,
/// UTF-8, wide characters, keys), for an operator whose SSH session draws oddly. Keys are
/// echoed by name; q or Ctrl-C leaves.
struct TerminalCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "terminal-check", abstract: "Show what iapdesk sees of this terminal; q quits.")

    func run() throws {
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
            for (index, color) in (0..<8).enumerated() {
                screen.write("  ", row: 7, col: 1 + index * 3, style: Style(background: .indexed(color)))
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
