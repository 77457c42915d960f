import Foundation
import TestSupport
import Testing

/// The ncurses driver in a real terminal: wide characters, sanitized hostile strings, key
/// names, a resize, and a clean exit on q.
@Suite("Terminal in tmux", .serialized, .needsTmux)
struct TerminalCheckTmuxTests {
    @Test("terminal-check draws CJK and escapes hostile text, follows a resize, reads keys and quits on q")
    func terminalCheck() async throws {
        let binary = try Tmux.binary()
        let tmux = try Tmux.start("\(binary) terminal-check")
        defer { tmux.stop() }
        // A program starting on a loaded machine (the whole suite at once) may take a while.
        let first = await tmux.screen(waitingFor: { $0.contains("size: 80×24") }, timeout: 20)
        #expect(first.contains("wide: 订单 月度会员 金币 ✓"))
        #expect(first.contains("hostile: acct\\x1B[2J\\u{202E}nimda"))
        try tmux.send("PageDown")
        #expect(await tmux.screen { $0.contains("key: PgDn") }.contains("key: PgDn"))
        try tmux.resize(cols: 40, rows: 10)
        let small = await tmux.screen { $0.contains("size: 40×10") }
        #expect(small.contains("size: 40×10"))
        #expect(small.split(separator: "\n").last?.contains("q quit") == true)
        try tmux.send("q")
        let deadline = Date().addingTimeInterval(5)
        while tmux.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!tmux.isRunning)
    }
}
