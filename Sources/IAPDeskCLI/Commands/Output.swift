import Foundation
import OrderStore
import Terminal

/// Text output for the command line. Every value that came from data goes through the
/// sanitizer, because an account id can carry escape sequences.
enum Output {
    static func safe(_ text: String?) -> String { Sanitizer.sanitize(text ?? "-") }

    static func time(_ millis: Millis?) -> String { millis.map(\.iso8601) ?? "-" }

    static func age(_ millis: Millis) -> String { millis.ageText }

    /// A plain aligned table, measured in terminal cells (CJK is two wide), columns cut
    /// at `width` cells.
    static func table(_ header: [String], _ rows: [[String]], width: Int = 40) -> String {
        let cells = ([header] + rows).map { $0.map { TextWidth.truncate($0, to: width) } }
        let widths = header.indices.map { column in cells.map { TextWidth.of($0[column]) }.max() ?? 0 }
        return cells.map { row in
            row.enumerated().map { TextWidth.fit($1, to: widths[$0]) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }

    static func orders(_ orders: [Order]) -> String {
        table(["ORDER", "ACCOUNT", "PRODUCT", "STATE", "ENV", "TRANSACTION", "CREATED"], orders.map {
            [safe($0.orderId), safe($0.accountId), safe($0.productId), $0.state.rawValue, $0.environment?.rawValue ?? "-",
             safe($0.transactionId), time($0.createdAt)]
        })
    }

    static func keyValues(_ pairs: [(String, String)]) -> String {
        let width = pairs.map { TextWidth.of($0.0) }.max() ?? 0
        return pairs.map { TextWidth.fit($0.0, to: width) + "  " + $0.1 }.joined(separator: "\n")
    }
}
