import Terminal
import Testing

@testable import Console

/// A detail screen wraps its text once per change, not per frame and per key.
@Suite("Scrolling text")
struct ScrollingTextTests {
    @Test("The wrap is made again only when the content changed, the width changed or the theme changed; otherwise it is the one made before")
    func wrapCache() {
        var text = ScrollingText()
        var made = 0
        var content = [("first line of the detail", Style())]
        func lines() -> [(String, Style)] {
            made += 1
            return content
        }
        let area = Area(top: 0, left: 0, rows: 10, cols: 40)
        #expect(text.wrapped(area: area, theme: .builtIn, lines).map(\.0) == ["first line of the detail"])
        _ = text.wrapped(area: area, theme: .builtIn, lines)
        _ = text.handle(.down, area: area, theme: .builtIn, lines)
        #expect(made == 1, "a frame and a key reuse the wrap")
        content = [("second", Style())]
        #expect(text.wrapped(area: area, theme: .builtIn, lines).map(\.0) == ["first line of the detail"], "unchanged until told")
        text.changed()
        #expect(text.wrapped(area: area, theme: .builtIn, lines).map(\.0) == ["second"])
        _ = text.wrapped(area: Area(top: 0, left: 0, rows: 10, cols: 12), theme: .builtIn, lines)
        #expect(made == 3, "a new width wraps again")
    }
}
