import Foundation
import OrderDomain
import OrderStore
import Presentation
import Terminal

/// What `:export FILE` saves of the screen on top: a list as CSV (every row loaded, the
/// columns the command line prints), a page as its text.
public enum ScreenExport: Sendable {
    case table(headers: [String], rows: [[String]])
    case text([String])

    static func of<Item>(_ listing: Listing<Item>, _ items: [Item]) -> ScreenExport {
        .table(headers: listing.headers, rows: items.map { item in listing.cells(item).map(\.text) })
    }

    static func of(lines: [(String, Style)]) -> ScreenExport { .text(lines.map(\.0)) }

    var isTable: Bool {
        if case .table = self { return true }
        return false
    }

    var rowCount: Int {
        switch self {
        case .table(_, let rows): rows.count
        case .text(let lines): lines.count
        }
    }

    var contents: String {
        switch self {
        case .table(let headers, let rows): ([Export.csvRow(headers)] + rows.map(Export.csvRow)).joined(separator: "\n") + "\n"
        case .text(let lines): lines.joined(separator: "\n") + "\n"
        }
    }

    /// Writes to `path` (relative to where the console was started), readable by its owner
    /// only, never over an existing file: an export holds player data, and a typo must not
    /// replace something else.
    func write(to path: String) throws {
        let url = URL(fileURLWithPath: path)
        guard !FileManager.default.fileExists(atPath: url.path) else { throw ExportError("not saved: a file is there already, name a new one (\(path))") }
        guard FileManager.default.createFile(atPath: url.path, contents: Data(contents.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw ExportError("cannot write \(path)")
        }
    }

    struct ExportError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

extension ListScreen {
    public func export(theme: Theme) -> ScreenExport? { .of(listing, items) }
}

extension StuckScreen {
    public func export(theme: Theme) -> ScreenExport? { .of(listing, items) }
}

extension OrdersScreen {
    public func export(theme: Theme) -> ScreenExport? { .of(OrderListings.orders(storeIsProduction: isProduction, for: orders), orders) }
}

extension OrderDetailScreen {
    public func export(theme: Theme) -> ScreenExport? { .of(lines: lines(theme: theme)) }
}

extension SubscriptionScreen {
    public func export(theme: Theme) -> ScreenExport? { .of(lines: lines(theme: theme)) }
}

extension AccountScreen {
    public func export(theme: Theme) -> ScreenExport? { .of(lines: lines(theme: theme)) }
}

extension RefundRequestScreen {
    public func export(theme: Theme) -> ScreenExport? { .of(lines: lines(theme: theme)) }
}
