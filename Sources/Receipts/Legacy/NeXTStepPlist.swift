/// The flat NeXTSTEP-style property list of iOS 6 transaction receipts:
/// `{ "key" = "value"; ... }`. Only string values occur in them; nesting is an error.
enum NeXTStepPlist {
    static func parse(_ bytes: [UInt8]) throws(ReceiptError) -> [(key: String, value: String)] {
        var i = 0
        func skipSpace() {
            while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        }
        func expect(_ byte: UInt8) throws(ReceiptError) {
            skipSpace()
            guard i < bytes.count, bytes[i] == byte else {
                throw .malformed("transaction receipt: expected '\(Character(Unicode.Scalar(byte)))' at byte \(i)")
            }
            i += 1
        }
        func quoted() throws(ReceiptError) -> String {
            try expect(UInt8(ascii: "\""))
            var out: [UInt8] = []
            while i < bytes.count {
                let b = bytes[i]
                i += 1
                if b == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
                if b == UInt8(ascii: "\\"), i < bytes.count {
                    let e = bytes[i]
                    i += 1
                    switch e {
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "t"): out.append(0x09)
                    default: out.append(e)
                    }
                } else {
                    out.append(b)
                }
            }
            throw .malformed("transaction receipt: unterminated string")
        }

        var pairs: [(key: String, value: String)] = []
        try expect(UInt8(ascii: "{"))
        while true {
            skipSpace()
            guard i < bytes.count else { throw .malformed("transaction receipt: missing '}'") }
            if bytes[i] == UInt8(ascii: "}") { break }
            let key = try quoted()
            try expect(UInt8(ascii: "="))
            let value = try quoted()
            try expect(UInt8(ascii: ";"))
            pairs.append((key, value))
        }
        return pairs
    }
}
