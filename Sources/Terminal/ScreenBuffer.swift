import SafeText

/// One cell of the screen: a grapheme cluster and its style. The right half of a wide
/// (CJK, emoji) character is a continuation cell with empty text.
public struct Cell: Equatable, Sendable {
    public var text: String
    public var style: Style

    public static let blank = Cell(text: " ", style: .plain)
    public var isContinuation: Bool { text.isEmpty }
}

/// The in-memory canvas screens draw on. The ncurses driver puts a finished buffer on the
/// terminal; tests read it back as text and styles. Every string written is sanitized and
/// cut by display width here, so no screen can forget to (the Security article).
public struct ScreenBuffer: Equatable, Sendable {
    public let rows: Int
    public let cols: Int
    private var cells: [Cell]

    public init(rows: Int, cols: Int) {
        self.rows = max(0, rows)
        self.cols = max(0, cols)
        cells = Array(repeating: .blank, count: self.rows * self.cols)
    }

    public subscript(row: Int, col: Int) -> Cell {
        guard contains(row, col) else { return .blank }
        return cells[row * cols + col]
    }

    func contains(_ row: Int, _ col: Int) -> Bool { row >= 0 && row < rows && col >= 0 && col < cols }

    /// Paints `width` cells of `row` from `col` with spaces in `style` (a bar, a selection).
    public mutating func fill(row: Int, col: Int = 0, width: Int? = nil, style: Style) {
        guard row >= 0, row < rows else { return }
        let start = max(0, col), end = min(cols, col + (width ?? cols - col))
        guard start < end else { return }
        // A wide character cut by either edge is blanked whole, never left split.
        clearWide(row, start)
        clearWide(row, end - 1)
        for c in start..<end { cells[row * cols + c] = Cell(text: " ", style: style) }
    }

    /// Writes `text` at (`row`, `col`) in at most `maxWidth` cells (default: to the edge),
    /// sanitized, cut with `…` without splitting a wide character. Returns the cells used.
    @discardableResult
    public mutating func write(_ text: String, row: Int, col: Int, maxWidth: Int? = nil, style: Style = .plain) -> Int {
        guard row >= 0, row < rows, col >= 0, col < cols else { return 0 }
        let room = min(cols - col, maxWidth ?? cols - col)
        guard room > 0 else { return 0 }
        let visible = TextWidth.truncate(Sanitizer.sanitize(text), to: room)
        var c = col
        for character in visible {
            let width = TextWidth.of(character)
            if width == 0 {
                // A combining mark joins the cell before it.
                if c > col { cells[row * cols + c - 1].text.append(character) }
                continue
            }
            guard c + width <= col + room else { break }
            clearWide(row, c)
            cells[row * cols + c] = Cell(text: String(character), style: style)
            if width == 2 {
                clearWide(row, c + 1)
                cells[row * cols + c + 1] = Cell(text: "", style: style)
            }
            c += width
        }
        return c - col
    }

    /// Overwriting half of a wide character blanks its other half, so none is left split.
    private mutating func clearWide(_ row: Int, _ col: Int) {
        let here = cells[row * cols + col]
        if here.isContinuation, col > 0 {
            cells[row * cols + col - 1] = Cell(text: " ", style: cells[row * cols + col - 1].style)
        } else if TextWidth.of(here.text) == 2, col + 1 < cols {
            cells[row * cols + col + 1] = Cell(text: " ", style: here.style)
        }
    }

    /// One row as text (wide characters once, trailing spaces kept).
    public func line(_ row: Int) -> String {
        guard row >= 0, row < rows else { return "" }
        return cells[(row * cols)..<((row + 1) * cols)].map(\.text).joined()
    }

    /// The screen as text, rows joined by newlines, trailing spaces trimmed: what a test
    /// or `tmux capture-pane` would read.
    public var text: String {
        (0..<rows).map { row in
            var line = line(row)
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// Rows whose cells differ from `other`'s (all of them when the sizes differ).
    public func changedRows(since other: ScreenBuffer?) -> [Int] {
        guard let other, other.rows == rows, other.cols == cols else { return Array(0..<rows) }
        return (0..<rows).filter { row in cells[(row * cols)..<((row + 1) * cols)] != other.cells[(row * cols)..<((row + 1) * cols)] }
    }
}
