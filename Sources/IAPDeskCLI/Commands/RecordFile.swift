import ArgumentParser
import Foundation

/// Records a studio brings in a file: CSV with a header line naming the columns (no quoting:
/// ids, names and base64 hold no commas) or JSON Lines, one object per line. Each record
/// keeps where it came from (`file:line: `), so an error names the line and the field.
enum RecordFile {
    typealias Record = (place: String, fields: [String: String])

    static func csv(_ text: String, file: String, columns: [String], required: String) throws -> [Record] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .init(charactersIn: "\r")) }
        guard let header = lines.first?.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }), header.contains(required) else {
            throw ValidationError("\(file): line 1 names the columns: \(columns.joined(separator: ","))")
        }
        if let unknown = header.first(where: { !columns.contains($0) }) { throw ValidationError("\(file):1: no column \(unknown)") }
        return lines.enumerated().dropFirst().filter { !$0.element.isEmpty }.map { number, line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            return ("\(file):\(number + 1): ", Dictionary(zip(header, cells), uniquingKeysWith: { first, _ in first }))
        }
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
