import OrderDomain
import PostgresNIO
import SQLKit

/// Typed reads from an `SQLRow`, with errors that name the column. Booleans are stored
/// as integers 0/1 in both backends.
struct Row {
    let raw: any SQLRow
    /// A PostgreSQL row of a prepared statement, read through PostgresNIO's own decoders:
    /// PostgresKit's `SQLRow` decodes each column through `Decodable` (coding paths, generic
    /// metadata and dynamic casts per column), which a profile of the any-id lookup found
    /// among its top costs, with up to 50 rows of 22 columns. What these decoders do not
    /// read (NULL in a column that must have a value, another type) goes to `raw`, which
    /// decodes it or says why not.
    private let cells: PostgresRandomAccessRow?

    init(raw: any SQLRow) {
        self.raw = raw
        self.cells = nil
    }

    init(postgres row: PostgresRow) {
        self.raw = row.sql()
        self.cells = row.makeRandomAccess()
    }

    func string(_ column: String) throws -> String {
        try native(column, String.self, Self.textTypes) ?? raw.decode(column: column, as: String.self)
    }

    func optionalString(_ column: String) throws -> String? {
        if isNull(column) { return nil }
        return try native(column, String.self, Self.textTypes) ?? raw.decode(column: column, as: String?.self)
    }

    func int64(_ column: String) throws -> Int64 {
        try native(column, Int64.self, Self.integerTypes) ?? raw.decode(column: column, as: Int64.self)
    }

    func optionalInt64(_ column: String) throws -> Int64? {
        if isNull(column) { return nil }
        return try native(column, Int64.self, Self.integerTypes) ?? raw.decode(column: column, as: Int64?.self)
    }

    func int(_ column: String) throws -> Int { Int(try int64(column)) }
    func optionalInt(_ column: String) throws -> Int? { try optionalInt64(column).map { Int($0) } }
    func bool(_ column: String) throws -> Bool { try int64(column) != 0 }

    private static let textTypes: Set<PostgresDataType> = [.text, .varchar, .name, .bpchar]
    private static let integerTypes: Set<PostgresDataType> = [.int2, .int4, .int8]

    /// The column's value as PostgresNIO decodes it; nil to leave it to `raw` (not a
    /// prepared statement's row, no such column, NULL, another type, or bytes it refused).
    private func native<T: PostgresDecodable>(_ column: String, _ type: T.Type, _ types: Set<PostgresDataType>) -> T? {
        guard let cells, cells.contains(column) else { return nil }
        let cell = cells[column]
        guard cell.bytes != nil, types.contains(cell.dataType) else { return nil }
        do {
            return try cell.decode(T.self)
        } catch {
            return nil
        }
    }

    private func isNull(_ column: String) -> Bool {
        guard let cells, cells.contains(column) else { return false }
        return cells[column].bytes == nil
    }

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
