import Foundation

/// Any JSON value, decoded without losing the difference between a boolean and a number.
indirect enum JSONValue: Decodable {
    case string(String), number(Double, text: String), bool(Bool), null
    case array([JSONValue]), object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let value = try? c.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? c.decode(Int64.self) {
            self = .number(Double(value), text: String(value))
        } else if let value = try? c.decode(Double.self) {
            self = .number(value, text: String(value))
        } else if let value = try? c.decode(String.self) {
            self = .string(value)
        } else if let value = try? c.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    static func parse(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    /// Compact JSON text, keys sorted.
    var text: String {
        switch self {
        case .string(let s):
            let data = (try? JSONEncoder().encode(s)) ?? Data()
            return String(decoding: data, as: UTF8.self)
        case .number(_, let text): return text
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.keys.sorted().map { "\(JSONValue.string($0).text):\(members[$0]?.text ?? "null")" }.joined(separator: ",") + "}"
        }
    }
}
