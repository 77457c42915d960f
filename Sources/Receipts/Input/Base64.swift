/// Strict base64 for receipts: whitespace and line breaks are tolerated (receipts get
/// pasted from mail and logs), anything else outside the alphabet is an error. Written
/// over UTF-8 bytes because Foundation's decoder plus a Character filter cost 17 ms on an
/// 80 KB receipt; this costs well under a tenth of that.
package enum Base64 {
    /// 0–63 for the alphabet (both the standard and the URL-safe one), 64 for
    /// whitespace, 65 for padding, 255 for anything else.
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        table[Int(UInt8(ascii: "+"))] = 62
        table[Int(UInt8(ascii: "/"))] = 63
        table[Int(UInt8(ascii: "-"))] = 62
        table[Int(UInt8(ascii: "_"))] = 63
        for space in [" ", "\n", "\r", "\t"] { table[Int(space.utf8.first ?? 0)] = 64 }
        table[Int(UInt8(ascii: "="))] = 65
        return table
    }()

    static func decode(_ text: String, what: String) throws(ReceiptError) -> [UInt8] {
        var copy = text
        let result = copy.withUTF8 { decode(bytes: $0) }
        guard let result else { throw .malformed("\(what): not valid base64") }
        guard !result.isEmpty else { throw .malformed("\(what): empty input") }
        return result
    }

    /// base64url without padding, as JWS uses.
    static func decodeURL(_ text: Substring, what: String) throws(ReceiptError) -> [UInt8] {
        var copy = String(text)
        let result = copy.withUTF8 { decode(bytes: $0) }
        guard let result, !text.isEmpty else { throw .malformed("\(what): not valid base64url") }
        return result
    }

    /// ``decodeURL(_:what:)`` over bytes already split out of a compact JWS.
    static func decodeURL(_ bytes: UnsafeBufferPointer<UInt8>, what: String) throws(ReceiptError) -> [UInt8] {
        guard !bytes.isEmpty, let result = decode(bytes: bytes) else { throw .malformed("\(what): not valid base64url") }
        return result
    }

    /// base64url for the simulator's and the Server API client's JWTs; nil when not valid.
    package static func decodeURL(_ text: Substring) -> [UInt8]? {
        text.isEmpty ? nil : try? decodeURL(text, what: "")
    }

    /// base64url without padding (RFC 7515 §2).
    package static func encodeURL(_ bytes: some Collection<UInt8>) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 4 / 3 + 3)
        var iterator = bytes.makeIterator()
        while let a = iterator.next() {
            let b = iterator.next(), c = iterator.next()
            let n = UInt32(a) << 16 | UInt32(b ?? 0) << 8 | UInt32(c ?? 0)
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            if b != nil { out.append(alphabet[Int(n >> 6 & 63)]) }
            if c != nil { out.append(alphabet[Int(n & 63)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Nil for a character outside the alphabet, data after padding, or a lone final symbol.
    static func decode(bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        table.withUnsafeBufferPointer { decode(bytes: bytes, table: $0) }
    }

    private static func decode(bytes: UnsafeBufferPointer<UInt8>, table: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count / 4 * 3 + 3)
        var accumulator: UInt32 = 0
        var count = 0
        var padding = 0
        for byte in bytes {
            let value = table[Int(byte)]
            switch value {
            case 64: continue
            case 65:
                padding += 1
                continue
            case 255: return nil
            default:
                guard padding == 0 else { return nil }
                accumulator = accumulator << 6 | UInt32(value)
                count += 1
                if count == 4 {
                    output.append(UInt8(truncatingIfNeeded: accumulator >> 16))
                    output.append(UInt8(truncatingIfNeeded: accumulator >> 8))
                    output.append(UInt8(truncatingIfNeeded: accumulator))
                    accumulator = 0
                    count = 0
                }
            }
        }
        switch count {
        case 0: break
        case 2: output.append(UInt8(truncatingIfNeeded: accumulator >> 4))
        case 3:
            output.append(UInt8(truncatingIfNeeded: accumulator >> 10))
            output.append(UInt8(truncatingIfNeeded: accumulator >> 2))
        default: return nil
        }
        guard padding <= 2 else { return nil }
        return output
    }
}
