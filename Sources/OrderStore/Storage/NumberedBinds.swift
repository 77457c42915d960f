import SQLKit

extension SQLQueryString {
    /// A statement written once with PostgreSQL's placeholders (`$1`, `$2`, …), bound for
    /// SQLKit on either backend: every occurrence of `$n` becomes a bind of `values[n - 1]`,
    /// so a value used twice is bound twice. The statements that are also prepared on
    /// PostgreSQL keep one text this way. `$` is not used otherwise in the store's SQL.
    init(numbered text: String, _ values: [any Encodable & Sendable]) {
        self.init("")
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            let digits = rest[rest.index(after: dollar)...].prefix(while: \.isASCIIDigit)
            self = self + SQLQueryString(String(rest[..<dollar]))
            if let number = Int(digits), values.indices.contains(number - 1) {
                self = self + "\(bind: values[number - 1])"
            } else {
                self = self + SQLQueryString("$" + digits)
            }
            rest = rest[digits.endIndex...]
        }
        self = self + SQLQueryString(String(rest))
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
