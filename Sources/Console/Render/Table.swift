import Presentation
import Terminal

/// A table column: a fixed width, or flexible (sharing what is left, at least `width`).
struct Column {
    var title: String
    var width: Int
    var flexible = false
}

/// Draws a table with a header row in `area`: rows from `top`, the selected one highlighted,
/// each cell cut by display width.
enum Table {
    static func widths(_ columns: [Column], cols: Int) -> [Int] {
        let gaps = columns.count - 1
        let fixed = columns.reduce(0) { $0 + $1.width } + gaps
        let flexible = columns.filter(\.flexible).count
        let spare = max(0, cols - fixed)
        return columns.map { $0.flexible && flexible > 0 ? $0.width + spare / flexible : $0.width }
    }

    static func draw(
        _ screen: inout ScreenBuffer, area: Area, columns: [Column], rows: [[(String, Style?)]],
        selected: Int?, top: Int, theme: Theme
    ) {
        let widths = widths(columns, cols: area.cols - 1)
        var col = area.left + 1
        for (column, width) in zip(columns, widths) {
            screen.write(column.title, row: area.top, col: col, maxWidth: width, style: theme[.tableHeader])
            col += width + 1
        }
        for line in 0..<max(0, area.rows - 1) {
            let index = top + line
            guard index < rows.count else { break }
            let row = area.top + 1 + line
            let isSelected = index == selected
            if isSelected { screen.fill(row: row, col: area.left, width: area.cols, style: theme[.selectedRow]) }
            var col = area.left + 1
            for (cell, width) in zip(rows[index], widths) {
                let style = isSelected ? theme[.selectedRow] : (cell.1 ?? theme[.row])
                screen.write(cell.0, row: row, col: col, maxWidth: width, style: style)
                col += width + 1
            }
        }
    }

    /// Draws `items` as `listing` says: the columns that fit the area, each cell written to
    /// its column's width in its tone.
    static func draw<Item>(
        _ screen: inout ScreenBuffer, area: Area, listing: Listing<Item>, items: [Item], selected: Int?, top: Int, theme: Theme
    ) {
        let shown = listing.columns(fitting: area.cols - 1)
        let columns = shown.map { Column(title: $0.title, width: $0.width, flexible: $0.flexible) }
        let widths = widths(columns, cols: area.cols - 1)
        // Only the rows on screen are formatted: a list of 500 costs the same as one of 20.
        let visible = items.indices.dropFirst(top).prefix(max(0, area.rows - 1))
        var rows = [[(String, Style?)]](repeating: [], count: items.count)
        for index in visible {
            rows[index] = zip(shown, widths).map { column, width in
                let cell = column.cell(items[index])
                return (cell.text(fitting: width), theme[tone: cell.tone])
            }
        }
        draw(&screen, area: area, columns: columns, rows: rows, selected: selected, top: top, theme: theme)
    }

    /// Where the navigation keys move a selection among `count` rows (`page` rows per
    /// PgUp/PgDn); nil for any other key.
    static func move(_ selected: Int, by key: Key, count: Int, page: Int) -> Int? {
        let target: Int
        switch key {
        case .down, .character("j"): target = selected + 1
        case .up, .character("k"): target = selected - 1
        case .pageDown: target = selected + max(1, page)
        case .pageUp: target = selected - max(1, page)
        case .home: target = 0
        case .end: target = count - 1
        default: return nil
        }
        return max(0, min(target, count - 1))
    }

    /// The first row to show so that `selected` is visible in `visible` rows.
    static func scroll(top: Int, selected: Int, visible: Int) -> Int {
        guard visible > 0 else { return selected }
        if selected < top { return selected }
        if selected >= top + visible { return selected - visible + 1 }
        return top
    }
}
