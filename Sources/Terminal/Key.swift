/// A key press as screens see it, whatever the terminal sent.
public enum Key: Hashable, Sendable {
    case character(Character)
    /// Ctrl with a letter: `.control("c")`.
    case control(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, escape, backspace, tab, backTab, delete
    case function(Int)
    /// The terminal changed size; the next frame is drawn at the new size.
    case resize

    /// How help and footers name it: `↑`, `PgDn`, `Ctrl-C`, `q`.
    public var label: String {
        switch self {
        case .character(" "): "Space"
        case .character(let c): String(c)
        case .control(let c): "Ctrl-\(c.uppercased())"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "Backspace"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .delete: "Del"
        case .function(let n): "F\(n)"
        case .resize: "resize"
        }
    }
}
