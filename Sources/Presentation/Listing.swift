import OrderDomain

/// A column of a listing: its heading, the cells the console gives it, and how each item
/// fills it.
public struct ListColumn<Item> {
    public let title: String
    /// Cells on the console (at least this many when flexible); the command line sizes
    /// every column to its content.
    public let width: Int
    /// Shares the console's spare width with the other flexible columns.
    public let flexible: Bool
    /// Shown on the console only when the terminal has room to spare; the command line
    /// always prints it.
    public let optional: Bool
    public let cell: (Item) -> Cell

    public init(_ title: String, width: Int, flexible: Bool = false, optional: Bool = false, cell: @escaping (Item) -> Cell) {
        self.title = title
        self.width = width
        self.flexible = flexible
        self.optional = optional
        self.cell = cell
    }
}

/// A table of items, said once for the console's list screens and the command line's
/// tables: a column added here appears in both.
public struct Listing<Item> {
    /// What the list is, as the console's title says it.
    public let title: String
    public let columns: [ListColumn<Item>]
    /// What an empty list says.
    public let empty: String

    public init(title: String, empty: String, columns: [ListColumn<Item>]) {
        self.title = title
        self.empty = empty
        self.columns = columns
    }

    public var headers: [String] { columns.map(\.title) }

    public func cells(_ item: Item) -> [Cell] { columns.map { $0.cell(item) } }

    /// Cells flexible columns keep beyond their minimum before an optional column may take
    /// room: what they hold (an error, a reason) matters more than what is optional.
    public static var spareForFlexible: Int { 16 }

    /// The columns shown in `width` cells: every column that is not optional, then the
    /// optional ones, left to right, while the flexible columns keep room to spare.
    public func columns(fitting width: Int) -> [ListColumn<Item>] {
        let required = columns.filter { !$0.optional }
        var used = required.reduce(0) { $0 + $1.width } + max(0, required.count - 1)
        var shown = Set<Int>()
        for (index, column) in columns.enumerated() where column.optional {
            guard used + column.width + 1 + Self.spareForFlexible <= width else { continue }
            used += column.width + 1
            shown.insert(index)
        }
        return columns.enumerated().filter { !$0.element.optional || shown.contains($0.offset) }.map(\.element)
    }
}
