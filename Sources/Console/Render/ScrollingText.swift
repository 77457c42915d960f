import SafeText
import Terminal

/// Lines of text that wrap to the screen and scroll: the detail, receipt, subscription,
/// account, notification and help screens all read this way. Drawing changes nothing; keys
/// move the offset, knowing how many wrapped lines there are.
struct ScrollingText {
    private(set) var offset = 0
    /// The last wrap, kept while the screen's content, the width and the theme stay the
    /// same: a frame and each key both need it, and the refresh every 2 s need not redo it.
    private var cache: (generation: Int, cols: Int, theme: Theme, lines: [(String, Style)])?
    private var generation = 0

    /// `lines` wrapped to `area`; a wrapped line continues two cells in from where its text
    /// starts.
    static func wrap(_ lines: [(String, Style)], area: Area) -> [(String, Style)] {
        wrap(lines.map { ($0.0, $0.1, $0.0.prefix { $0 == " " }.count + 2) }, area: area)
    }

    /// `lines` wrapped to `area`, each continuing at its own `hang` (a column of text).
    static func wrap(_ lines: [(String, Style, hang: Int)], area: Area) -> [(String, Style)] {
        let width = max(10, area.cols - 2)
        return lines.flatMap { text, style, hang in TextWidth.wrap(Sanitizer.sanitize(text), to: width, hang: hang).map { ($0, style) } }
    }

    /// The first line shown: the offset, kept within the last page.
    func first(of count: Int, area: Area) -> Int { max(0, min(offset, count - area.rows)) }

    /// Draws wrapped lines from the offset.
    func draw(_ wrapped: [(String, Style)], into screen: inout ScreenBuffer, area: Area) {
        for (index, line) in wrapped.dropFirst(first(of: wrapped.count, area: area)).prefix(area.rows).enumerated() {
            screen.write(line.0, row: area.top + index, col: 1, style: line.1)
        }
    }

    /// Scrolls `count` wrapped lines for the arrows, PgUp/PgDn, Home and End; false for any
    /// other key.
    mutating func handle(_ key: Key, area: Area, count: Int) -> Bool {
        var target = first(of: count, area: area)
        switch key {
        case .down, .character("j"): target += 1
        case .up, .character("k"): target -= 1
        case .pageDown: target += max(1, area.rows - 1)
        case .pageUp: target -= max(1, area.rows - 1)
        case .home: target = 0
        case .end: target = count
        default: return false
        }
        offset = max(0, min(target, count - area.rows))
        return true
    }

    mutating func reset() { offset = 0 }

    /// The screen's content changed (it loaded, or shows something else): wrap it again.
    mutating func changed() { generation += 1 }

    /// `lines` wrapped to `area`, made only when the cached wrap is stale.
    mutating func wrapped(area: Area, theme: Theme, _ lines: () -> [(String, Style)]) -> [(String, Style)] {
        if let cache, cache.generation == generation, cache.cols == area.cols, cache.theme == theme { return cache.lines }
        let wrapped = Self.wrap(lines(), area: area)
        cache = (generation, area.cols, theme, wrapped)
        return wrapped
    }

    /// Draws the screen's lines, wrapped (from the cache when it holds).
    mutating func render(into screen: inout ScreenBuffer, area: Area, theme: Theme, _ lines: () -> [(String, Style)]) {
        let wrapped = wrapped(area: area, theme: theme, lines)
        draw(wrapped, into: &screen, area: area)
    }

    /// Scrolls the screen's lines for a key; false for a key that is not a scroll.
    mutating func handle(_ key: Key, area: Area, theme: Theme, _ lines: () -> [(String, Style)]) -> Bool {
        let count = wrapped(area: area, theme: theme, lines).count
        return handle(key, area: area, count: count)
    }
}
