import Presentation
import Terminal

/// Draws a listing as a table with a header row in `area`: the columns that fit, rows from
/// `top`, the selected one highlighted, each cell written to its column's width in its tone.
enum Table {
    /// Each column's width in `cols` cells: its own, and for flexible ones an equal share
    /// of what is left.
    static func widths<Item>(_ columns: [ListColumn<Item>], cols: Int) -> [Int] {
        let gaps = columns.count - 1
        let fixed = columns.reduce(0) { $0 + $1.width } + gaps
        let flexible = columns.filter(\.flexible).count
        let spare = max(0, cols - fixed)
        return columns.map { $0.flexible && flexible > 0 ? $0.width + spare / flexible : $0.width }
    }

    static func draw<Item>(
        _ screen: inout ScreenBuffer, area: Area, listing: Listing<Item>, items: [Item], selected: Int?, top: Int, theme: Theme
    ) {
        let columns = listing.columns(fitting: area.cols - 1)
        let widths = widths(columns, cols: area.cols - 1)
        var col = area.left + 1
        for (column, width) in zip(columns, widths) {
            screen.write(column.title, row: area.top, col: col, maxWidth: width, style: theme[.tableHeader])
            col += width + 1
        }
        // Only the rows on screen are formatted: a list of 500 costs the same as one of 20.
        for (line, index) in items.indices.dropFirst(top).prefix(max(0, area.rows - 1)).enumerated() {
            let row = area.top + 1 + line
            let isSelected = index == selected
            if isSelected { screen.fill(row: row, col: area.left, width: area.cols, style: theme[.selectedRow]) }
            var col = area.left + 1
            for (column, width) in zip(columns, widths) {
                let cell = column.cell(items[index])
                screen.write(cell.text(fitting: width), row: row, col: col, maxWidth: width, style: isSelected ? theme[.selectedRow] : theme[tone: cell.tone])
                col += width + 1
            }
        }
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
