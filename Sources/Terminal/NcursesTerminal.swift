import CNcurses
import Foundation

/// The real terminal, through ncursesw (reference/terminal-ui.md §2): the locale set
/// before `initscr` with a UTF-8 fallback, raw keys (so Ctrl-C reaches the console and it
/// can restore the terminal), keypad, a 25 ms ESC delay, the cursor hidden, colours per
/// `ColorDepth`. A frame is a `ScreenBuffer`; only rows that changed since the last one are
/// written, and `doupdate` sends only the cells that differ.
///
/// ncurses is not thread-safe: one thread owns this object from `start` to `stop`.
public final class NcursesTerminal {
    public let depth: ColorDepth
    /// True when the locale was not UTF-8 and C.UTF-8 was forced (an SSH session without
    /// a forwarded locale); the console says so in its status line.
    public let forcedUTF8: Bool
    private var previous: ScreenBuffer?
    private var pairs: [PairKey: Int32] = [:]
    private var stopped = false

    private struct PairKey: Hashable {
        var foreground: Int?
        var background: Int?
    }

    public enum StartError: Error, CustomStringConvertible {
        case noTerminal
        public var description: String { "cannot start the terminal (is TERM set, and is this a terminal?)" }
    }

    public static func start(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> NcursesTerminal {
        setlocale(LC_ALL, "")
        var forced = false
        if iapdesk_codeset_is_utf8() == 0 {
            setlocale(LC_CTYPE, "C.UTF-8")
            forced = true
        }
        guard initscr() != nil else { throw StartError.noTerminal }
        raw()
        noecho()
        nonl()
        keypad(iapdesk_stdscr(), true)
        // Lets ncurses scroll lines on the terminal (insert/delete line) instead of redrawing
        // them: a one-row scroll of a table then costs a few escape sequences, not a screen.
        idlok(iapdesk_stdscr(), true)
        set_escdelay(25)
        curs_set(0)
        var depth = ColorDepth.none
        if has_colors() {
            start_color()
            use_default_colors()
            depth = ColorDepth.detect(colors: Int(iapdesk_colors()), environment: environment)
        }
        return NcursesTerminal(depth: depth, forcedUTF8: forced)
    }

    private init(depth: ColorDepth, forcedUTF8: Bool) {
        self.depth = depth
        self.forcedUTF8 = forcedUTF8
    }

    /// Restores the terminal. Safe to call twice.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        endwin()
    }

    public var size: (rows: Int, cols: Int) { (Int(iapdesk_lines()), Int(iapdesk_cols())) }

    /// Puts `screen` on the terminal.
    public func present(_ screen: ScreenBuffer) {
        if previous?.rows != screen.rows || previous?.cols != screen.cols { werase(iapdesk_stdscr()) }
        for row in screen.changedRows(since: previous) {
            for col in 0..<screen.cols {
                let cell = screen[row, col]
                if cell.isContinuation { continue }
                var text = cell.text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
                text.append(0)
                // Writing the bottom-right cell returns ERR on some terminals; the cell is drawn anyway.
                _ = iapdesk_put_cell(Int32(row), Int32(col), text, attributes(cell.style.attributes), pair(for: cell.style))
            }
        }
        previous = screen
        wnoutrefresh(iapdesk_stdscr())
        doupdate()
    }

    /// Forgets what is on the screen, so the next frame is drawn whole (after a resize, or
    /// when something else may have drawn over it).
    public func invalidate() {
        previous = nil
        clearok(iapdesk_stdscr(), true)
    }

    /// Returns when the keyboard has input, or after `milliseconds`. The wait happens on a
    /// thread of its own, so the console's tasks keep running meanwhile; only the file
    /// descriptor is watched there, ncurses itself stays on the caller's side. A resize
    /// does not wake it: callers bound the wait (the console uses 50 ms).
    public func waitForInput(upToMilliseconds milliseconds: Int32) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Self.inputWatcher.async {
                var watched = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
                _ = poll(&watched, 1, milliseconds)
                done.resume()
            }
        }
    }

    private static let inputWatcher = DispatchQueue(label: "iapdesk.terminal.input")

    /// The next key, waiting at most `timeoutMilliseconds`; nil when none came.
    public func readKey(timeoutMilliseconds: Int32) -> Key? {
        wtimeout(iapdesk_stdscr(), timeoutMilliseconds)
        var code: wint_t = 0
        let result = wget_wch(iapdesk_stdscr(), &code)
        if result == KEY_CODE_YES { return Self.functionKey(Int32(bitPattern: code)) }
        guard result == OK else { return nil }
        return Self.character(code)
    }

    static func character(_ code: UInt32) -> Key? {
        switch code {
        case 27: return .escape
        case 10, 13: return .enter
        case 9: return .tab
        case 8, 127: return .backspace
        case 1...26: return UnicodeScalar(code + 96).map { .control(Character($0)) }
        default: return UnicodeScalar(code).map { .character(Character($0)) }
        }
    }

    static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: .up
        case KEY_DOWN: .down
        case KEY_LEFT: .left
        case KEY_RIGHT: .right
        case KEY_PPAGE: .pageUp
        case KEY_NPAGE: .pageDown
        case KEY_HOME: .home
        case KEY_END: .end
        case KEY_ENTER: .enter
        case KEY_BACKSPACE: .backspace
        case KEY_DC: .delete
        case KEY_BTAB: .backTab
        case KEY_RESIZE: .resize
        case KEY_F0 + 1...KEY_F0 + 12: .function(Int(code - KEY_F0))
        default: nil
        }
    }

    private func attributes(_ a: TextAttributes) -> attr_t {
        var value = iapdesk_a_normal()
        if a.contains(.bold) { value |= iapdesk_a_bold() }
        if a.contains(.dim) { value |= iapdesk_a_dim() }
        if a.contains(.underline) { value |= iapdesk_a_underline() }
        if a.contains(.reverse) { value |= iapdesk_a_reverse() }
        if a.contains(.italic) { value |= iapdesk_a_italic() }
        return value
    }

    /// Colour pairs are made on first use and kept: old terminals have few of them.
    private func pair(for style: Style) -> Int32 {
        let key = PairKey(foreground: depth.index(for: style.foreground), background: depth.index(for: style.background))
        if key.foreground == nil && key.background == nil { return 0 }
        if let known = pairs[key] { return known }
        let next = Int32(pairs.count + 1)
        guard next < iapdesk_color_pairs() else { return 0 }
        init_extended_pair(next, Int32(key.foreground ?? -1), Int32(key.background ?? -1))
        pairs[key] = next
        return next
    }
}
