import NIOConcurrencyHelpers
import OrderDomain
import SQLKit

/// A statement written once with PostgreSQL's placeholders (`$1`, `$2`, …), bound for SQLKit
/// on either backend: every occurrence of `$n` becomes a bind of `values[n - 1]`, so a value
/// used twice is bound twice. The statements that are also prepared on PostgreSQL keep one
/// text this way. `$` is not used otherwise in the store's SQL.
///
/// The text is split at its placeholders once, and kept by the statement's name: binding is
/// then a walk over a few pieces. Walking the any-id lookup's 3 KB text character by
/// character on every call showed in a profile of SQLite's lookups.
struct NumberedStatement: Sendable {
    private enum Piece: Sendable {
        case text(String)
        case value(Int)
    }

    private let pieces: [Piece]

    init(_ text: String) {
        var pieces: [Piece] = []
        let bytes = Array(text.utf8)
        var start = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "$") else {
                index += 1
                continue
            }
            var end = index + 1
            var number = 0
            while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) {
                number = number * 10 + Int(bytes[end] - UInt8(ascii: "0"))
                end += 1
            }
            guard end > index + 1 else {
                index += 1  // a `$` with no number stays text
                continue
            }
            if start < index { pieces.append(.text(String(decoding: bytes[start..<index], as: UTF8.self))) }
            pieces.append(.value(number))
            start = end
            index = end
        }
        if start < bytes.count { pieces.append(.text(String(decoding: bytes[start...], as: UTF8.self))) }
        self.pieces = pieces
    }

    /// The statement with `values` bound; a placeholder with no value stays as written.
    ///
    /// An integer is written into the text instead (a limit, here): SQLite plans with a bound
    /// `LIMIT`'s value, so a statement prepared before its binding is prepared a second time at
    /// its first step, which on a million orders was a third of an any-id lookup's time.
    func bound(_ values: [any Encodable & Sendable]) -> SQLQueryString {
        var query = SQLQueryString("")
        for piece in pieces {
            switch piece {
            case .text(let text): query.appendLiteral(text)
            case .value(let number) where values.indices.contains(number - 1):
                switch values[number - 1] {
                case let integer as Int64: query.appendInterpolation(literal: integer)
                case let integer as Int: query.appendInterpolation(literal: integer)
                case let value: query.appendInterpolation(bind: value)
                }
            case .value(let number): query.appendLiteral("$\(number)")
            }
        }
        return query
    }

    /// The statement `name` stands for, split the first time it is asked for.
    static func named(_ name: String, _ text: () -> String) -> NumberedStatement {
        if let known = cache.withLockedValue({ $0[name] }) { return known }
        let statement = NumberedStatement(text())
        cache.withLockedValue { $0[name] = statement }
        return statement
    }

    private static let cache = NIOLockedValueBox<[String: NumberedStatement]>([:])
}
