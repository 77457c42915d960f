/// The receipt payload's hot path: TLV headers read straight from an unsafe buffer, so a
/// 187-purchase receipt (≈ 4,000 attributes) parses without reference counting. The same
/// checks as `BERReader` apply: every length is bounded by its parent, nesting is bounded,
/// indefinite lengths are walked to their end-of-contents.
struct FastTLV {
    let bytes: UnsafeBufferPointer<UInt8>

    struct Element {
        var tag: UInt8  // the identifier octet (receipts use low tag numbers only)
        var content: Range<Int>
        var end: Int  // index after the element (after 00 00 when indefinite)
    }

    func element(at offset: Int, limit: Int, depth: Int) throws(BERError) -> Element {
        guard depth <= BERReader.maxDepth else { throw BERError(message: "nested too deeply", offset: offset) }
        guard limit - offset >= 2 else { throw BERError(message: "truncated: expected an element", offset: offset) }
        let tag = bytes[offset]
        guard tag & 0x1F != 0x1F else { throw BERError(message: "unexpected high tag number in the payload", offset: offset) }
        var i = offset + 1
        let first = bytes[i]
        i += 1
        if first < 0x80 {
            let length = Int(first)
            guard length <= limit - i else { throw BERError(message: "length \(length) runs past the end of the data", offset: offset) }
            return Element(tag: tag, content: i..<(i + length), end: i + length)
        }
        if first == 0x80 {
            guard tag & 0x20 != 0 else { throw BERError(message: "indefinite length on a primitive element", offset: offset) }
            let start = i
            while true {
                guard limit - i >= 2 else { throw BERError(message: "truncated: missing end-of-contents", offset: offset) }
                if bytes[i] == 0 && bytes[i + 1] == 0 { return Element(tag: tag, content: start..<i, end: i + 2) }
                i = try element(at: i, limit: limit, depth: depth + 1).end
            }
        }
        let count = Int(first & 0x7F)
        guard count <= 4 else { throw BERError(message: "length field too long", offset: offset) }
        guard count <= limit - i else { throw BERError(message: "truncated length", offset: offset) }
        var length = 0
        for _ in 0..<count {
            length = length << 8 | Int(bytes[i])
            i += 1
        }
        guard length <= limit - i else { throw BERError(message: "length \(length) runs past the end of the data", offset: offset) }
        return Element(tag: tag, content: i..<(i + length), end: i + length)
    }

    func int64(_ element: Element) throws(BERError) -> Int64 {
        let range = element.content
        guard !range.isEmpty else { throw BERError(message: "empty INTEGER", offset: range.lowerBound) }
        guard range.count <= 8 else { throw BERError(message: "INTEGER wider than 64 bits", offset: range.lowerBound) }
        var value: Int64 = bytes[range.lowerBound] & 0x80 != 0 ? -1 : 0
        for index in range { value = value << 8 | Int64(bytes[index]) }
        return value
    }

    func string(_ element: Element) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[element.content]), as: UTF8.self)
    }
}
