import OrderDomain

/// One value in a table, kept as what it is (a time stays a time) so each medium writes it
/// its own way: the command line in full (ISO 8601), the console shortened to its column.
public struct Cell: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        case text(String?)
        case time(Millis?)
        case age(Millis)
        case count(Int64)
    }

    public var value: Value
    public var tone: Tone

    public init(_ text: String?, _ tone: Tone = .plain) {
        value = .text(text)
        self.tone = tone
    }

    public init(_ value: Value, _ tone: Tone = .plain) {
        self.value = value
        self.tone = tone
    }

    public static func time(_ millis: Millis?, _ tone: Tone = .muted) -> Cell { Cell(.time(millis), tone) }
    public static func count<N: BinaryInteger>(_ n: N, _ tone: Tone = .plain) -> Cell { Cell(.count(Int64(n)), tone) }

    /// The whole value, as the command line prints it; "-" for nothing.
    public var text: String {
        switch value {
        case .text(let text): text ?? "-"
        case .time(let millis): millis?.iso8601 ?? "-"
        case .age(let millis): millis.ageText
        case .count(let n): "\(n)"
        }
    }

    /// The value for a column `width` cells wide: a time drops what does not fit, from the
    /// year down to the seconds, instead of being cut mid-number.
    public func text(fitting width: Int) -> String {
        guard case .time(let millis) = value else { return text }
        return TimeText.fitting(millis, width: width)
    }
}

/// Times as people read them on a terminal: "2026-11-23 10:11:12", shortened to fit.
public enum TimeText {
    /// The full time, UTC, without the ISO `T` and `Z`.
    public static func full(_ millis: Millis?) -> String {
        guard let millis else { return "-" }
        return String(millis.iso8601.replacingOccurrences(of: "T", with: " ").dropLast())
    }

    /// 19 cells or more: the full time; 16: no seconds; 11: no year; 8: the time of day.
    public static func fitting(_ millis: Millis?, width: Int) -> String {
        let full = full(millis)
        guard millis != nil else { return full }
        switch width {
        case 19...: return full
        case 16...: return String(full.prefix(16))
        case 11...: return String(full.dropFirst(5).prefix(11))
        case 8...: return String(full.suffix(8))
        default: return String(full.suffix(8).prefix(5))
        }
    }
}
