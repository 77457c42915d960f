import SafeText
import Terminal
import Testing

@Suite("Sanitizer")
struct SanitizerTests {
    @Test("Escape sequences, bells and DEL become visible escapes")
    func controls() {
        #expect(Sanitizer.sanitize("a\u{1B}[2Jb") == "a\\x1B[2Jb")
        #expect(Sanitizer.sanitize("\u{1B}]0;owned\u{07}") == "\\x1B]0;owned\\x07")
        #expect(Sanitizer.sanitize("x\u{7F}\u{9B}y\n") == "x\\x7F\\x9By\\x0A")
    }

    @Test("Bidi overrides and isolates are shown, not obeyed")
    func bidi() {
        #expect(Sanitizer.sanitize("acct\u{202E}nimda\u{202C}") == "acct\\u{202E}nimda\\u{202C}")
        #expect(Sanitizer.sanitize("\u{2066}x\u{2069}") == "\\u{2066}x\\u{2069}")
    }

    @Test("CJK, emoji and ordinary text pass unchanged")
    func clean() {
        for text in ["玩家_小明_🐉", "60 金币 · 60 Coins", "ord_000000123", ""] {
            #expect(Sanitizer.sanitize(text) == text)
            #expect(Sanitizer.isClean(text))
        }
        #expect(!Sanitizer.isClean("a\u{1B}"))
    }
}
