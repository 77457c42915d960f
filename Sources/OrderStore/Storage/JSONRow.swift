import OrderDomain
import SQLKit

/// A row PostgreSQL returned as a JSON object (`json_agg` of a subquery), read through the
/// same `Row` accessors as a driver's row. The store's columns are `bigint` or `text`, so
/// a value is a JSON number, a string or null.
struct JSONRow: SQLRow, Decodable {
    enum Value: Decodable, Sendable {
        case integer(Int64), text(String), null

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let integer = try? container.decode(Int64.self) {
                self = .integer(integer)
            } else {
                self = .text(try container.decode(String.self))
            }
        }
    }

    let values: [String: Value]

    init(from decoder: any Decoder) throws {
        values = try decoder.singleValueContainer().decode([String: Value].self)
    }

    var allColumns: [String] { Array(values.keys) }

    func contains(column: String) -> Bool { values[column] != nil }

    func decodeNil(column: String) throws -> Bool {
        if case .null = try value(column) { return true }
        return false
    }

    /// `Row` asks for `String`, `Int64` and their optionals; a null casts to any optional.
    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        let found: Any? =
            switch try value(column) {
            case .integer(let integer): integer
            case .text(let text): text
            case .null: nil
            }
        guard let typed = found as? D else {
            throw DecodingError.typeMismatch(D.self, .init(codingPath: [], debugDescription: "column \(column) holds \(String(describing: found))"))
        }
        return typed
    }

    private func value(_ column: String) throws -> Value {
        guard let value = values[column] else {
            throw DecodingError.keyNotFound(SomeCodingKey(stringValue: column), .init(codingPath: [], debugDescription: "no column \(column)"))
        }
        return value
    }
}
