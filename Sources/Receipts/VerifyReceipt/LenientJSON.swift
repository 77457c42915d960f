import Foundation

/// Any JSON key, so that one field can be looked up under Apple's alternative spellings
/// (`is_retryable` / `is-retryable`, `bundle_id` / `bid`).
struct AnyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Apple sends numbers as strings ("quantity": "1"), and re-serialised copies of its
/// answers turn them back into numbers and booleans. These readers accept every form
/// and return nil for a missing or null field; a present value of the wrong kind is an
/// error naming the field.
extension KeyedDecodingContainer where Key == AnyKey {
    func lenientString(_ names: String...) throws -> String? {
        for name in names {
            let key = AnyKey(name)
            guard contains(key), !(try decodeNil(forKey: key)) else { continue }
            if let text = try? decode(String.self, forKey: key) { return text }
            if let number = try? decode(Int64.self, forKey: key) { return String(number) }
            if let number = try? decode(Double.self, forKey: key) {
                return number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
            }
            if let flag = try? decode(Bool.self, forKey: key) { return flag ? "true" : "false" }
            throw DecodingError.typeMismatch(String.self, .init(codingPath: codingPath + [key], debugDescription: "expected a string or number"))
        }
        return nil
    }

    func lenientInt(_ names: String...) throws -> Int64? {
        for name in names {
            guard let text = try lenientString(name) else { continue }
            if let value = Int64(text) { return value }
            if text == "true" { return 1 }
            if text == "false" { return 0 }
            if let double = Double(text), double == double.rounded(), abs(double) < 9e18 { return Int64(double) }
            throw DecodingError.typeMismatch(
                Int64.self, .init(codingPath: codingPath + [AnyKey(name)], debugDescription: "expected an integer, found \(text.prefix(40))"))
        }
        return nil
    }

    func lenientBool(_ names: String...) throws -> Bool? {
        for name in names {
            guard let text = try lenientString(name) else { continue }
            switch text.lowercased() {
            case "true", "1": return true
            case "false", "0": return false
            default:
                throw DecodingError.typeMismatch(
                    Bool.self, .init(codingPath: codingPath + [AnyKey(name)], debugDescription: "expected a boolean, found \(text.prefix(40))"))
            }
        }
        return nil
    }

    /// A date field: `NAME_ms` (milliseconds), else `NAME` as milliseconds (iOS 6's
    /// `expires_date`) or as `2015-11-17 16:34:41 Etc/GMT`, else `NAME_formatted`.
    func lenientDate(_ name: String) throws -> Date? {
        if let ms = try lenientString(name + "_ms"), !ms.isEmpty {
            guard let value = Double(ms), AppleDate.plausibleMilliseconds.contains(value) else { throw invalidDate(name + "_ms", ms) }
            return Date(timeIntervalSince1970: value / 1000)
        }
        for candidate in [name, name + "_formatted"] {
            guard let text = try lenientString(candidate), !text.isEmpty else { continue }
            if let value = Double(text) {
                guard AppleDate.plausibleMilliseconds.contains(value) else { throw invalidDate(candidate, text) }
                return Date(timeIntervalSince1970: value / 1000)
            }
            guard let date = AppleDateText.parse(text) else { throw invalidDate(candidate, text) }
            return date
        }
        return nil
    }

    private func invalidDate(_ name: String, _ text: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath + [AnyKey(name)], debugDescription: "not a date: \(text.prefix(40))"))
    }
}

/// Apple's textual dates in verifyReceipt: `2015-11-17 16:34:41 Etc/GMT`, or RFC 3339.
enum AppleDateText {
    static func parse(_ text: String) -> Date? {
        for suffix in [" Etc/GMT", " GMT", " UTC"] where text.hasSuffix(suffix) {
            return RFC3339.parse(String(text.dropLast(suffix.count)) + "Z")
        }
        return RFC3339.parse(text)
    }
}
