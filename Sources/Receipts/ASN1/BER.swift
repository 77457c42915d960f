/// A minimal, zero-copy BER reader for the PKCS#7 container (the payload's hot path is
/// `FastTLV`). It accepts what Apple produces (DER, and the indefinite-length BER that Xcode
/// writes) and refuses everything else with an error instead of trapping: lengths are
/// checked against the bytes that remain, nesting is bounded, and no length is trusted
/// before it is checked. Elements are index ranges into one shared buffer.
public struct BERElement: Sendable {
    /// The identifier octet's class and constructed bits plus the tag number.
    public let tag: BERTag
    /// The whole element, identifier through end of content (end-of-contents octets included).
    public let encoded: Range<Int>
    /// The content octets (without the end-of-contents octets of an indefinite length).
    public let content: Range<Int>
    public let isIndefinite: Bool
}

public struct BERTag: Sendable, Equatable {
    public let cls: UInt8  // 0 universal, 1 application, 2 context, 3 private
    public let constructed: Bool
    public let number: UInt32

    public static let integer = BERTag(cls: 0, constructed: false, number: 2)
    public static let octetString = BERTag(cls: 0, constructed: false, number: 4)
    public static let oid = BERTag(cls: 0, constructed: false, number: 6)
    public static let utf8String = BERTag(cls: 0, constructed: false, number: 12)
    public static let sequence = BERTag(cls: 0, constructed: true, number: 16)
    public static let set = BERTag(cls: 0, constructed: true, number: 17)
    public static let ia5String = BERTag(cls: 0, constructed: false, number: 22)

    public static func context(_ number: UInt32, constructed: Bool = true) -> BERTag {
        BERTag(cls: 2, constructed: constructed, number: number)
    }
}

public struct BERError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public let offset: Int
    public var description: String { "\(message) (at byte \(offset))" }
}

/// Reads elements out of a byte buffer. Copying the struct is cheap: the bytes are shared.
public struct BERReader: Sendable {
    public let bytes: [UInt8]
    /// Deeper nesting than this is refused: Apple's structures need about a dozen levels.
    public static let maxDepth = 40

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The element that starts at `offset` and must end by `limit`.
    public func element(at offset: Int, limit: Int, depth: Int = 0) throws(BERError) -> BERElement {
        guard depth <= Self.maxDepth else { throw BERError(message: "nested too deeply", offset: offset) }
        var i = offset
        guard i < limit else { throw BERError(message: "truncated: expected an element", offset: offset) }
        let first = bytes[i]
        i += 1
        var number = UInt32(first & 0x1F)
        if number == 0x1F {
            // High tag number form: base-128, at most 4 octets.
            number = 0
            var count = 0
            while true {
                guard i < limit else { throw BERError(message: "truncated tag", offset: offset) }
                let b = bytes[i]
                i += 1
                count += 1
                guard count <= 4 else { throw BERError(message: "tag number too large", offset: offset) }
                number = (number << 7) | UInt32(b & 0x7F)
                if b & 0x80 == 0 { break }
            }
        }
        let tag = BERTag(cls: first >> 6, constructed: first & 0x20 != 0, number: number)
        guard i < limit else { throw BERError(message: "truncated length", offset: offset) }
        let lengthByte = bytes[i]
        i += 1
        if lengthByte == 0x80 {
            guard tag.constructed else {
                throw BERError(message: "indefinite length on a primitive element", offset: offset)
            }
            // Walk children until the end-of-contents octets (00 00).
            let start = i
            while true {
                guard i + 1 < limit else { throw BERError(message: "truncated: missing end-of-contents", offset: offset) }
                if bytes[i] == 0 && bytes[i + 1] == 0 {
                    return BERElement(tag: tag, encoded: offset..<(i + 2), content: start..<i, isIndefinite: true)
                }
                i = try element(at: i, limit: limit, depth: depth + 1).encoded.upperBound
            }
        }
        var length = 0
        if lengthByte & 0x80 == 0 {
            length = Int(lengthByte)
        } else {
            let count = Int(lengthByte & 0x7F)
            guard count <= 4 else { throw BERError(message: "length field too long", offset: offset) }
            guard i + count <= limit else { throw BERError(message: "truncated length", offset: offset) }
            for _ in 0..<count {
                length = (length << 8) | Int(bytes[i])
                i += 1
            }
        }
        guard length <= limit - i else {
            throw BERError(message: "length \(length) runs past the end of the data", offset: offset)
        }
        return BERElement(tag: tag, encoded: offset..<(i + length), content: i..<(i + length), isIndefinite: false)
    }

    /// The first element of the buffer, which must span it (trailing zero padding allowed).
    public func root() throws(BERError) -> BERElement {
        try element(at: 0, limit: bytes.count)
    }

    /// The children of a constructed element, in order.
    public func children(of parent: BERElement, depth: Int = 1) throws(BERError) -> [BERElement] {
        guard parent.tag.constructed else { throw BERError(message: "expected a constructed element", offset: parent.encoded.lowerBound) }
        var result: [BERElement] = []
        var i = parent.content.lowerBound
        while i < parent.content.upperBound {
            let child = try element(at: i, limit: parent.content.upperBound, depth: depth)
            result.append(child)
            i = child.encoded.upperBound
        }
        return result
    }

    /// Asserts a tag, naming what was expected in the error.
    public func expect(_ element: BERElement, _ tag: BERTag, _ what: String) throws(BERError) {
        guard element.tag == tag else {
            throw BERError(message: "expected \(what)", offset: element.encoded.lowerBound)
        }
    }

    /// The bytes of an OCTET STRING, joining the segments of a constructed one (Xcode's BER).
    public func octets(_ element: BERElement, depth: Int = 1) throws(BERError) -> ArraySlice<UInt8> {
        if !element.tag.constructed { return bytes[element.content] }
        var joined: [UInt8] = []
        for segment in try children(of: element, depth: depth) {
            guard segment.tag.number == 4 else {
                throw BERError(message: "constructed OCTET STRING holds a non-OCTET STRING", offset: segment.encoded.lowerBound)
            }
            joined += try octets(segment, depth: depth + 1)
        }
        return joined[...]
    }

    /// A signed INTEGER that fits in 64 bits (web order line item ids need all of them).
    public func int64(_ element: BERElement) throws(BERError) -> Int64 {
        try BERReader.int64(bytes[element.content], offset: element.encoded.lowerBound)
    }

    static func int64(_ content: ArraySlice<UInt8>, offset: Int) throws(BERError) -> Int64 {
        guard !content.isEmpty else { throw BERError(message: "empty INTEGER", offset: offset) }
        guard content.count <= 8 else { throw BERError(message: "INTEGER wider than 64 bits", offset: offset) }
        var value: Int64 = content.first.map { $0 & 0x80 != 0 ? -1 : 0 } ?? 0
        for byte in content { value = (value << 8) | Int64(byte) }
        return value
    }

    /// Dotted form of an OBJECT IDENTIFIER.
    public func oid(_ element: BERElement) throws(BERError) -> String {
        try expect(element, .oid, "an OBJECT IDENTIFIER")
        var parts: [UInt64] = []
        var value: UInt64 = 0
        var length = 0
        for byte in bytes[element.content] {
            length += 1
            guard length <= 9 else { throw BERError(message: "OID arc too large", offset: element.encoded.lowerBound) }
            value = (value << 7) | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 {
                parts.append(value)
                value = 0
                length = 0
            }
        }
        guard let first = parts.first, length == 0 else {
            throw BERError(message: "malformed OBJECT IDENTIFIER", offset: element.encoded.lowerBound)
        }
        let head = first < 80 ? [first / 40, first % 40] : [2, first - 80]
        return (head + parts.dropFirst()).map(String.init).joined(separator: ".")
    }
}
