import Foundation
import OrderDomain
import OrderStore
import Presentation
import SafeText
import Terminal

/// Text output for the command line. Every value that came from data goes through the
/// sanitizer, because an account id can carry escape sequences.
package enum Output {
    package static func safe(_ text: String?) -> String { Sanitizer.sanitize(text ?? "-") }

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

    /// A listing the console shows too, every column of it, each value in full; its empty
    /// text when there is nothing.
    static func table<Item>(_ listing: Listing<Item>, _ items: [Item], width: Int = 40) -> String {
        guard !items.isEmpty else { return listing.empty }
        return table(listing.headers, items.map { listing.cells($0).map { safe($0.text) } }, width: width)
    }

    /// A detail page the console shows too: fields aligned, headed sections indented.
    static func detail(_ sections: [DetailSection]) -> String {
        sections.map { section in
            var lines = section.heading.map { ["\n\($0):"] } ?? []
            let indent = section.heading == nil ? "" : "  "
            let labelled = section.lines.filter { $0.label != nil }
            let width = labelled.map { TextWidth.of($0.label ?? "") }.max() ?? 0
            for line in section.lines {
                let lead = indent + String(repeating: "  ", count: line.depth)
                if let label = line.label {
                    lines.append(lead + TextWidth.fit(label, to: width) + "  " + safe(line.text))
                } else if let at = line.at {
                    lines.append(lead + time(at) + "  " + safe(line.text))
                } else {
                    lines.append(lead + safe(line.text))
                }
            }
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    static func keyValues(_ pairs: [(String, String)]) -> String {
        let width = pairs.map { TextWidth.of($0.0) }.max() ?? 0
        return pairs.map { TextWidth.fit($0.0, to: width) + "  " + $0.1 }.joined(separator: "\n")
    }

    /// Prints records as CSV or JSON (an array) page by page, as `fetch` reads them, up to
    /// `limit` (nil: all). CSV lines are sanitized before they reach the terminal; JSON
    /// escapes control characters itself.
    static func export<Item: Sendable>(
        _ fields: [ExportField<Item>], format: ExportFormat, limit: Int?, fetch: (OrderCursor?, Int) async throws -> Page<Item>
    ) async throws {
        var cursor: OrderCursor?
        var printed = 0
        if format == .csv { print(Export.csvHeader(fields)) } else { print("[") }
        repeat {
            let size = min(500, limit.map { $0 - printed } ?? 500)
            guard size > 0 else { break }
            let page = try await fetch(cursor, size)
            let lines = format == .csv ? Export.csvLines(fields, page.items).map(safe) : Export.jsonObjects(fields, page.items)
            for line in lines {
                print(format == .csv ? line : (printed == 0 ? "  " : ", ") + line)
                printed += 1
            }
            cursor = page.next
        } while cursor != nil
        if format == .json { print("]") }
    }

    /// A finance report in any format: the table prints amounts as the catalogue's minor units.
    static func report(_ report: FinanceReport, format: ExportFormat) {
        records(ExportFields.report, report.rows, format: format, empty: "no \(report.kind.rawValue) in the span")
    }

    /// Records already in hand, in any format (`empty` for a table of none).
    static func records<Item>(_ fields: [ExportField<Item>], _ items: [Item], format: ExportFormat, empty: String) {
        switch format {
        case .table:
            let rows = items.map { item in fields.map { safe(Export.text($0.value(item))) } }
            print(items.isEmpty ? empty : table(fields.map { $0.key.uppercased() }, rows))
        case .csv:
            print(Export.csvHeader(fields))
            for line in Export.csvLines(fields, items) { print(safe(line)) }
        case .json:
            print(items.isEmpty ? "[]" : "[\n  " + Export.jsonObjects(fields, items).joined(separator: "\n, ") + "\n]")
        }
    }
}
