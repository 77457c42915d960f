import OrderDomain
import PostgresNIO
import SQLKit
import SQLiteNIO

/// Typed reads from an `SQLRow`, with errors that name the column. Booleans are stored
/// as integers 0/1 in both backends. Text and integers are read straight from the driver's
/// row where it is at hand (a SQLite row, a PostgreSQL prepared statement's); anything else
/// is decoded through SQLKit.
struct Row {
    /// The row as SQLKit decodes it, for what the typed reads do not cover. A PostgreSQL row's
    /// SQLKit view copies its cells again, so it is made only when asked for.
    var raw: any SQLRow {
        switch source {
        case .sqlKit(let row): row
        case .postgres(let row): row.sql()
        }
    }
    private enum Source {
        case sqlKit(any SQLRow)
        case postgres(PostgresRow)
    }
    private let source: Source
    /// A PostgreSQL row of a prepared statement, read through PostgresNIO's own decoders:
    /// PostgresKit's `SQLRow` decodes each column through `Decodable` (coding paths, generic
    /// metadata and dynamic casts per column), which a profile of the any-id lookup found
    /// among its top costs, with up to 50 rows of 22 columns. What these decoders do not
    /// read (NULL in a column that must have a value, another type) goes to `raw`, which
    /// decodes it or says why not.
    private let cells: PostgresRandomAccessRow?
    /// A SQLite row's values, read without decoding (``SQLiteStoreDatabase``).
    private let sqlite: SQLiteRow?

    init(raw: any SQLRow) {
        self.source = .sqlKit(raw)
        self.cells = nil
        self.sqlite = (raw as? SQLiteStoreRow)?.row
    }

    init(postgres row: PostgresRow) {
        self.source = .postgres(row)
        self.cells = row.makeRandomAccess()
        self.sqlite = nil
    }

    func string(_ column: String) throws -> String {
        if case .text(let text) = sqlite?.column(column) { return text }
        return try native(cell(column), String.self, Self.textTypes) ?? raw.decode(column: column, as: String.self)
    }

    func optionalString(_ column: String) throws -> String? {
        switch sqlite?.column(column) {
        case .text(let text): return text
        case .null: return nil
        default: break
        }
        let cell = cell(column)
        if cell.map({ $0.bytes == nil }) ?? false { return nil }
        return try native(cell, String.self, Self.textTypes) ?? raw.decode(column: column, as: String?.self)
    }

    func int64(_ column: String) throws -> Int64 {
        if case .integer(let integer) = sqlite?.column(column) { return Int64(integer) }
        return try native(cell(column), Int64.self, Self.integerTypes) ?? raw.decode(column: column, as: Int64.self)
    }

    func optionalInt64(_ column: String) throws -> Int64? {
        switch sqlite?.column(column) {
        case .integer(let integer): return Int64(integer)
        case .null: return nil
        default: break
        }
        let cell = cell(column)
        if cell.map({ $0.bytes == nil }) ?? false { return nil }
        return try native(cell, Int64.self, Self.integerTypes) ?? raw.decode(column: column, as: Int64?.self)
    }

    func int(_ column: String) throws -> Int { Int(try int64(column)) }
    func optionalInt(_ column: String) throws -> Int? { try optionalInt64(column).map { Int($0) } }
    func bool(_ column: String) throws -> Bool { try int64(column) != 0 }

    private static let textTypes: [PostgresDataType] = [.text, .varchar, .name, .bpchar]
    private static let integerTypes: [PostgresDataType] = [.int2, .int4, .int8]

    /// The prepared statement's cell for `column`; nil for another row or no such column.
    private func cell(_ column: String) -> PostgresCell? {
        guard let cells, cells.contains(column) else { return nil }
        return cells[column]
    }

    /// The cell's value as PostgresNIO decodes it; nil to leave it to `raw` (not a
    /// prepared statement's row, no such column, NULL, another type, or bytes it refused).
    private func native<T: PostgresDecodable>(_ cell: PostgresCell?, _ type: T.Type, _ types: [PostgresDataType]) -> T? {
        guard let cell, cell.bytes != nil, types.contains(cell.dataType) else { return nil }
        do {
            return try cell.decode(T.self)
        } catch {
            return nil
        }
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
