import ArgumentParser
import Foundation

/// Records a studio brings in a file: CSV with a header line naming the columns (RFC 4180:
/// a field in double quotes may hold commas, line breaks and `""` for a quote, as a
/// spreadsheet writes it) or JSON Lines, one object per line. Each record keeps where it
/// came from (`file:line: `), so an error names the line and the field.
enum RecordFile {
    typealias Record = (place: String, fields: [String: String])

    static func csv(_ text: String, file: String, columns: [String], required: String) throws -> [Record] {
        let rows = try csvRows(text, file: file)
        guard let header = rows.first?.cells.map({ $0.trimmingCharacters(in: .whitespaces) }), header.contains(required) else {
            throw ValidationError("\(file): line 1 names the columns: \(columns.joined(separator: ","))")
        }
        if let unknown = header.first(where: { !columns.contains($0) }) { throw ValidationError("\(file):1: no column \(unknown)") }
        return try rows.dropFirst().filter { $0.cells != [""] }.map { row in
            let place = "\(file):\(row.line): "
            guard row.cells.count <= header.count else { throw ValidationError("\(place)\(row.cells.count) fields, but line 1 names \(header.count)") }
            return (place, Dictionary(zip(header, row.cells.map { $0.trimmingCharacters(in: .whitespaces) }), uniquingKeysWith: { first, _ in first }))
        }
    }

    /// The rows of a CSV text, each with the line it starts on.
    static func csvRows(_ text: String, file: String) throws -> [(line: Int, cells: [String])] {
        var rows: [(line: Int, cells: [String])] = []
        var cells: [String] = [], cell = "", quoted = false, wasQuoted = false
        var line = 1, rowLine = 1
        var characters = Array(text.replacingOccurrences(of: "\r\n", with: "\n"))[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" {
                        characters.removeFirst()
                        cell.append("\"")
                    } else {
                        quoted = false
                    }
                } else {
                    if character == "\n" { line += 1 }
                    cell.append(character)
                }
                continue
            }
            switch character {
            case "\"" where cell.trimmingCharacters(in: .whitespaces).isEmpty && !wasQuoted:
                (quoted, wasQuoted, cell) = (true, true, "")
            case ",":
                cells.append(cell)
                (cell, wasQuoted) = ("", false)
            case "\n":
                cells.append(cell)
                rows.append((rowLine, cells))
                (cells, cell, wasQuoted) = ([], "", false)
                line += 1
                rowLine = line
            default:
                cell.append(character)
            }
        }
        if quoted { throw ValidationError("\(file):\(rowLine): a quoted field is never closed") }
        if !cell.isEmpty || !cells.isEmpty { rows.append((rowLine, cells + [cell])) }
        return rows
    }

    /// JSON Lines: strings and numbers are kept as text; anything else is refused by line.
    static func jsonLines(_ text: String, file: String) throws -> [Record] {
        try text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { number, line in
            let place = "\(file):\(number + 1): "
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw ValidationError("\(place)not a JSON object")
            }
            var fields: [String: String] = [:]
            for (key, value) in object {
                switch value {
                case let text as String: fields[key] = text
                case let number as NSNumber: fields[key] = number.stringValue
                case is NSNull: continue
                default: throw ValidationError("\(place)\(key): a string or a number")
                }
            }
            return (place, fields)
        }
    }
}
