import SQLKit

/// Typed reads from an `SQLRow`, with errors that name the column. Booleans are stored
/// as integers 0/1 in both backends.
struct Row {
    let raw: any SQLRow

    func string(_ column: String) throws -> String { try raw.decode(column: column, as: String.self) }
    func optionalString(_ column: String) throws -> String? { try raw.decode(column: column, as: String?.self) }
    func int64(_ column: String) throws -> Int64 { try raw.decode(column: column, as: Int64.self) }
    func optionalInt64(_ column: String) throws -> Int64? { try raw.decode(column: column, as: Int64?.self) }
    func int(_ column: String) throws -> Int { Int(try int64(column)) }
    func optionalInt(_ column: String) throws -> Int? { try optionalInt64(column).map { Int($0) } }
    func bool(_ column: String) throws -> Bool { try int64(column) != 0 }

    func value<T: RawRepresentable>(_ column: String, as type: T.Type) throws -> T where T.RawValue == String {
        let text = try string(column)
        guard let value = T(rawValue: text) else { throw StoreError.corrupt("column \(column) holds unknown value \(text)") }
        return value
    }

    func optionalValue<T: RawRepresentable>(_ column: String, as type: T.Type) throws -> T? where T.RawValue == String {
        guard let text = try optionalString(column) else { return nil }
        guard let value = T(rawValue: text) else { throw StoreError.corrupt("column \(column) holds unknown value \(text)") }
        return value
    }
}

extension SQLDatabase {
    func rows(_ query: SQLQueryString) async throws -> [Row] {
        try await raw(query).all().map(Row.init)
    }

    func row(_ query: SQLQueryString) async throws -> Row? {
        try await raw(query).first().map(Row.init)
    }
}
