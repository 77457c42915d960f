import Terminal

/// Lines of text that wrap to the screen and scroll: the detail, receipt, subscription,
/// account and help screens all read this way.
struct ScrollingText {
    private(set) var offset = 0

    /// Draws `lines` wrapped to `area`, from the current offset. A wrapped line continues
    /// two cells in from where its text starts.
    mutating func draw(_ lines: [(String, Style)], into screen: inout ScreenBuffer, area: Area) {
        draw(lines.map { ($0.0, $0.1, $0.0.prefix { $0 == " " }.count + 2) }, into: &screen, area: area)
    }

    /// Draws `lines` wrapped to `area`, each continuing at its own `hang` (a column of text).
    mutating func draw(_ lines: [(String, Style, hang: Int)], into screen: inout ScreenBuffer, area: Area) {
        let width = max(10, area.cols - 2)
        let all = lines.flatMap { text, style, hang in TextWidth.wrap(Sanitizer.sanitize(text), to: width, hang: hang).map { ($0, style) } }
        offset = max(0, min(offset, all.count - area.rows))
        for (index, line) in all.dropFirst(offset).prefix(area.rows).enumerated() {
            screen.write(line.0, row: area.top + index, col: 1, style: line.1)
        }
    }

    /// Scrolls for the arrows, PgUp/PgDn, Home and End; false for any other key.
    mutating func handle(_ key: Key, area: Area) -> Bool {
        switch key {
        case .down, .character("j"): offset += 1
        case .up, .character("k"): offset = max(0, offset - 1)
        case .pageDown: offset += max(1, area.rows - 1)
        case .pageUp: offset = max(0, offset - max(1, area.rows - 1))
        case .home: offset = 0
        // Clamped to the last page when drawn.
        case .end: offset = Int.max / 2
        default: return false
        }
        return true
    }

    mutating func reset() { offset = 0 }
}
