import Foundation

/// Parses receipt dates: RFC 3339 `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM|±HHMM)`. Apple writes
/// `Z` in App Store receipts and numeric offsets (`+0300`) in Xcode ones. Hand-written
/// because a receipt carries hundreds of dates and a formatter costs microseconds each.
public enum RFC3339 {
    public static func parse<C: Collection<UInt8>>(_ text: C) -> Date? where C.Index == Int {
        let s = text
        var i = s.startIndex
        let end = s.endIndex

        func digits(_ count: Int) -> Int? {
            guard end - i >= count else { return nil }
            var value = 0
            for _ in 0..<count {
                let c = s[i]
                guard c >= 48 && c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
                i += 1
            }
            return value
        }
        func take(_ byte: UInt8) -> Bool {
            guard i < end, s[i] == byte else { return false }
            i += 1
            return true
        }

        guard let year = digits(4), take(UInt8(ascii: "-")), let month = digits(2), take(UInt8(ascii: "-")),
            let day = digits(2), take(UInt8(ascii: "T")) || take(UInt8(ascii: "t")) || take(UInt8(ascii: " ")),
            let hour = digits(2), take(UInt8(ascii: ":")), let minute = digits(2), take(UInt8(ascii: ":")),
            let second = digits(2)
        else { return nil }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60 else { return nil }

        var fraction = 0.0
        if take(UInt8(ascii: ".")) {
            var scale = 0.1
            var any = false
            while i < end, s[i] >= 48, s[i] <= 57 {
                fraction += Double(s[i] - 48) * scale
                scale /= 10
                i += 1
                any = true
            }
            guard any else { return nil }
        }

        var offsetSeconds = 0
        if take(UInt8(ascii: "Z")) || take(UInt8(ascii: "z")) {
        } else if i < end, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
            let sign = s[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let oh = digits(2) else { return nil }
            _ = take(UInt8(ascii: ":"))
            guard let om = digits(2), oh < 24, om < 60 else { return nil }
            offsetSeconds = sign * (oh * 3600 + om * 60)
        } else {
            return nil
        }
        guard i == end else { return nil }

        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    public static func parse(_ text: String) -> Date? {
        var copy = text
        return copy.withUTF8 { parse($0) }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// `2020-07-22T18:33:15Z`, the form iapdesk prints.
    public static func format(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
