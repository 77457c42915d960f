import SafeText
import Terminal
import Testing

@Suite("Text width")
struct TextWidthTests {
    @Test("CJK and emoji take two cells, combining marks none")
    func widths() {
        #expect(TextWidth.of("abc") == 3)
        #expect(TextWidth.of("金币") == 4)
        #expect(TextWidth.of("玩家_小明_🐉") == 12)
        #expect(TextWidth.of("e\u{301}") == 1)  // é as e + combining acute
        #expect(TextWidth.of("ＡＢ") == 4)  // fullwidth Latin
    }

    @Test("Truncation never splits a wide character and marks the cut")
    func truncation() {
        #expect(TextWidth.truncate("60 金币 · 60 Coins", to: 6) == "60 金…")
        #expect(TextWidth.truncate("金币金币", to: 4) == "金…")  // 金 + … = 3 cells; 币 would straddle
        #expect(TextWidth.truncate("short", to: 10) == "short")
        #expect(TextWidth.fit("金", to: 4) == "金  ")
        #expect(TextWidth.of(TextWidth.fit("玩家_小明_🐉", to: 8)) == 8)
    }
}

@Suite struct WrapTests {
    @Test func wrapsAtSpacesAndInsideLongWords() {
        #expect(TextWidth.wrap("verify verify_receipt Production: valid", to: 16) == ["verify", "verify_receipt", "Production:", "valid"])
        #expect(TextWidth.wrap("2000000000000001", to: 6) == ["200000", "000000", "0001"])
        #expect(TextWidth.wrap("", to: 5) == [""])
    }

    @Test func neverSplitsAWideCharacter() {
        let lines = TextWidth.wrap("月度会员订阅", to: 5)
        #expect(lines == ["月度", "会员", "订阅"])
        #expect(lines.allSatisfy { TextWidth.of($0) <= 5 })
    }
}
