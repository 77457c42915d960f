import Testing

@testable import Terminal

@Suite struct ScreenBufferTests {
    @Test func writesAndReadsBackText() {
        var screen = ScreenBuffer(rows: 2, cols: 10)
        #expect(screen.write("orders", row: 0, col: 2) == 6)
        #expect(screen.text == "  orders\n")
        #expect(screen[0, 2].text == "o")
    }

    @Test func cutsAtTheEdgeWithAnEllipsis() {
        var screen = ScreenBuffer(rows: 1, cols: 8)
        screen.write("transaction 2000000123", row: 0, col: 0)
        #expect(screen.line(0) == "transac…")
    }

    @Test func wideCharactersTakeTwoCellsAndAreNeverSplit() {
        var screen = ScreenBuffer(rows: 1, cols: 7)
        #expect(screen.write("月度会员", row: 0, col: 0) == 7)  // three wide ones and the ellipsis
        #expect(screen.line(0) == "月度会…")
        var exact = ScreenBuffer(rows: 1, cols: 8)
        #expect(exact.write("月度会员", row: 0, col: 0) == 8)
        #expect(exact[0, 1].isContinuation)
        #expect(exact.text == "月度会员")
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var screen = ScreenBuffer(rows: 1, cols: 6)
        screen.write("金币", row: 0, col: 0)
        screen.write("x", row: 0, col: 1)
        #expect(screen.line(0) == " x币  ")
    }

    @Test func fillingHalfAWideCharacterBlanksTheOtherHalf() {
        var screen = ScreenBuffer(rows: 1, cols: 6)
        screen.write("金币金", row: 0, col: 0)
        screen.fill(row: 0, col: 1, width: 2, style: .plain)  // the right half of 金, the left of 币
        #expect(screen.line(0) == "      ".prefix(4) + "金")
        #expect(!screen[0, 4].isContinuation && screen[0, 5].isContinuation)
    }

    @Test func combiningMarksJoinTheirCell() {
        var screen = ScreenBuffer(rows: 1, cols: 6)
        screen.write("cafe\u{301}!", row: 0, col: 0)
        #expect(screen.line(0).hasPrefix("café!"))
        #expect(screen[0, 4].text == "!")
    }

    @Test func hostileStringsAreSanitizedOnTheWayIn() {
        var screen = ScreenBuffer(rows: 1, cols: 40)
        screen.write("acct\u{1B}[2J\u{202E}nimda", row: 0, col: 0)
        #expect(!screen.line(0).unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
        #expect(screen.line(0).contains("\\x1B[2J"))
    }

    @Test func stylesAreKeptPerCellAndChangedRowsAreFound() {
        var before = ScreenBuffer(rows: 3, cols: 5)
        before.write("abc", row: 1, col: 0)
        var after = before
        after.fill(row: 2, style: Style(attributes: .reverse))
        #expect(after[2, 4].style.attributes == .reverse)
        #expect(after.changedRows(since: before) == [2])
        #expect(after.changedRows(since: nil) == [0, 1, 2])
    }

    @Test func writingOutsideTheScreenDoesNothing() {
        var screen = ScreenBuffer(rows: 1, cols: 3)
        #expect(screen.write("x", row: 5, col: 0) == 0)
        #expect(screen.write("x", row: 0, col: 3) == 0)
        #expect(ScreenBuffer(rows: 0, cols: 0).text == "")
    }
}

@Suite struct ColorDepthTests {
    @Test func noColorWinsAndDepthFollowsCOLORS() {
        #expect(ColorDepth.detect(colors: 256, environment: ["NO_COLOR": ""]) == .none)
        #expect(ColorDepth.detect(colors: 256, environment: [:]) == .full)
        #expect(ColorDepth.detect(colors: 16, environment: [:]) == .sixteen)
        #expect(ColorDepth.detect(colors: 8, environment: [:]) == .eight)
        #expect(ColorDepth.detect(colors: 2, environment: [:]) == .none)
    }

    @Test func coloursMapToWhatTheTerminalHas() {
        #expect(ColorDepth.full.index(for: .rgb(255, 0, 0)) == 196)
        #expect(ColorDepth.full.index(for: .rgb(0x30, 0x30, 0x30)) == 236)
        #expect(ColorDepth.sixteen.index(for: .indexed(196)) == 9)  // bright red
        #expect(ColorDepth.eight.index(for: .indexed(196)) == 1)  // red
        #expect(ColorDepth.eight.index(for: .indexed(10)) == 2)  // bright green → green
        #expect(ColorDepth.none.index(for: .indexed(1)) == nil)
        #expect(ColorDepth.full.index(for: .terminalDefault) == nil)
    }
}
