import Foundation

/// A value the store keeps as JSON in one column (a verdict, a reason's particulars): keys
/// sorted, so equal values are equal text; a column that does not read is corruption,
/// named, never a silent nothing.
package protocol StoredJSON: Codable {}

extension StoredJSON {
    package func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// A value kept in a column that held words before it held JSON: the value, or nil for
    /// words. Words kept before never start with a brace, and JSON that does not read is
    /// taken for words (kept as the caller keeps words, not lost).
    package static func unlessWords(_ storedText: String) -> Self? {
        guard storedText.hasPrefix("{") else { return nil }
        return try? JSONDecoder().decode(Self.self, from: Data(storedText.utf8))
    }

    /// - Throws: ``StoreError/corrupt(_:)`` naming `record` and what it holds.
    package init(json: String, of record: String) throws {
        do {
            self = try JSONDecoder().decode(Self.self, from: Data(json.utf8))
        } catch {
            throw StoreError.corrupt("\(record): its stored \(Self.self) does not decode (\(error))")
        }
    }
}
