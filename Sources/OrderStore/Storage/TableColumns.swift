import NIOConcurrencyHelpers
import OrderDomain
import SQLKit

/// A record's columns, declared once as an enum: the queries select `list` and the decoder
/// reads each column by its case, so no column is named twice and none can be read that the
/// query did not select.
protocol TableColumn: RawRepresentable, CaseIterable where RawValue == String {}

extension TableColumn {
    /// The columns, comma-separated, in their declared order: what a query selects. Joined
    /// once per record type: queries on hot paths interpolate it on every call.
    static var list: String { ColumnLists.list(of: Self.self) }

    /// The columns of the table aliased `alias` (for a join).
    static func list(of alias: String) -> String { allCases.map { "\(alias).\($0.rawValue)" }.joined(separator: ", ") }
}

/// Each record type's column list, joined the first time it is asked for.
enum ColumnLists {
    private static let cache = NIOLockedValueBox<[ObjectIdentifier: String]>([:])

    static func list<Column: TableColumn>(of type: Column.Type) -> String {
        let key = ObjectIdentifier(type)
        if let known = cache.withLockedValue({ $0[key] }) { return known }
        let list = Column.allCases.map(\.rawValue).joined(separator: ", ")
        cache.withLockedValue { $0[key] = list }
        return list
    }
}

/// A record the store reads back from a row of its table, through its declared columns.
protocol StoredRecord {
    associatedtype Column: TableColumn
    init(_ row: Columns<Column>) throws
}

extension StoredRecord {
    init(row: Row) throws { try self.init(Columns(row)) }
}

/// A row read through a record's column enum (``TableColumn``): ``Row``'s typed reads, keyed
/// by case instead of by text.
struct Columns<Column: TableColumn> {
    let row: Row

    init(_ row: Row) { self.row = row }

    func string(_ column: Column) throws -> String { try row.string(column.rawValue) }
    func optionalString(_ column: Column) throws -> String? { try row.optionalString(column.rawValue) }
    func int64(_ column: Column) throws -> Int64 { try row.int64(column.rawValue) }
    func optionalInt64(_ column: Column) throws -> Int64? { try row.optionalInt64(column.rawValue) }
    func int(_ column: Column) throws -> Int { try row.int(column.rawValue) }
    func optionalInt(_ column: Column) throws -> Int? { try row.optionalInt(column.rawValue) }
    func bool(_ column: Column) throws -> Bool { try row.bool(column.rawValue) }

    func value<T: RawRepresentable>(_ column: Column, as type: T.Type) throws -> T where T.RawValue == String {
        try row.value(column.rawValue, as: type)
    }

    func optionalValue<T: RawRepresentable>(_ column: Column, as type: T.Type) throws -> T? where T.RawValue == String {
        try row.optionalValue(column.rawValue, as: type)
    }
}
