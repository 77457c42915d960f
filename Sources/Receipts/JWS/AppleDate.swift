import Foundation

/// A date Apple sends as milliseconds since 1970: a JSON number (fractional in Xcode's
/// JWS), or a numeric string in verifyReceipt (`purchase_date_ms`).
public struct AppleDate: Sendable, Equatable, Hashable, Decodable, Comparable {
    public let date: Date

    public init(_ date: Date) { self.date = date }
    public init(milliseconds: Double) { date = Date(timeIntervalSince1970: milliseconds / 1000) }

    public var milliseconds: Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// Milliseconds a date can hold: finite, within ±100,000,000 days of 1970 (the range
    /// JavaScript dates hold; Xcode writes year 0 for "never"). Anything else ("1e30",
    /// "inf", NaN) is hostile or broken data, refused where it is read so that no later
    /// conversion to an integer can trap.
    public static let plausibleMilliseconds: ClosedRange<Double> = -8_640_000_000_000_000...8_640_000_000_000_000

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let number = (try? container.decode(Double.self)) ?? (try? container.decode(String.self)).flatMap(Double.init)
        if let number, Self.plausibleMilliseconds.contains(number) {
            self.init(milliseconds: number)
        } else if number != nil {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a date out of range")
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected milliseconds since 1970")
        }
    }

    public static func < (lhs: AppleDate, rhs: AppleDate) -> Bool { lhs.date < rhs.date }
}

enum JSONErrors {
    /// A one-line description of a decoding error naming the field.
    static func describe(_ error: Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "top level" : keys.joined(separator: ".")
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(path(context)): missing \(key.stringValue)"
        @unknown default:
            return "\(error)"
        }
    }
}
