import Foundation
import Testing

@testable import Receipts

@Suite struct BERReaderTests {
    @Test func indefiniteLengthWithConstructedOctetString() throws {
        // SEQUENCE (indefinite) { OCTET STRING constructed (indefinite) { "ab", "cd" } }
        let bytes: [UInt8] = [0x30, 0x80, 0x24, 0x80, 0x04, 0x02, 0x61, 0x62, 0x04, 0x02, 0x63, 0x64, 0x00, 0x00, 0x00, 0x00]
        let reader = BERReader(bytes)
        let root = try reader.root()
        #expect(root.isIndefinite)
        #expect(root.encoded == 0..<16)
        let octets = try reader.octets(try #require(try reader.children(of: root).first))
        #expect(Array(octets) == Array("abcd".utf8))
    }

    @Test func sixtyFourBitIntegers() throws {
        let reader = BERReader([0x02, 0x07, 0x01, 0x35, 0x3A, 0x8C, 0x7C, 0x77, 0x8A])
        #expect(try reader.int64(try reader.root()) == 340_000_558_053_258)
        #expect(try BERReader.int64([0xFF][...], offset: 0) == -1)
        #expect(throws: BERError.self) { try BERReader.int64(Array(repeating: 1, count: 9)[...], offset: 0) }
    }

    @Test func objectIdentifiers() throws {
        let reader = BERReader([0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02])
        #expect(try reader.oid(try reader.root()) == "1.2.840.113549.1.7.2")
    }

    @Test(arguments: [
        ([0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF, 0x00] as [UInt8], "runs past the end"),
        ([0x30, 0x89, 0x01, 0, 0, 0, 0, 0, 0, 0, 0], "length field too long"),
        ([0x30, 0x05, 0x02, 0x01], "runs past the end"),
        ([0x30, 0x80, 0x02, 0x01, 0x00], "missing end-of-contents"),
        ([0x04, 0x80, 0x00, 0x00], "indefinite length on a primitive"),
        ([0x30], "truncated length"),
        ([0x1F, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0x00], "tag number too large"),
    ])
    func hostileEncodingsAreErrors(bytes: [UInt8], message: String) {
        #expect {
            _ = try BERReader(bytes).root()
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test func deepNestingIsRefusedQuickly() {
        let bytes = Array(repeating: [UInt8]([0x30, 0x80]), count: 100_000).flatMap { $0 }
        let started = Date()
        #expect(throws: BERError.self) { try BERReader(bytes).root() }
        #expect(Date().timeIntervalSince(started) < 1)
    }

    @Test(arguments: ["2021-04-03T22:38:45+0300", "2021-04-03T22:38:45+03:00", "2021-04-03T19:38:45Z", "2021-04-03T19:38:45.000Z"])
    func rfc3339Forms(text: String) {
        #expect(RFC3339.parse(text) == Date(timeIntervalSince1970: 1_617_478_725))
    }

    @Test(arguments: ["", "2021-04-03", "2021-13-03T19:38:45Z", "2021-04-03T19:38:45", "2021-04-03T19:38:45Zjunk", "２０２１-04-03T19:38:45Z"])
    func rfc3339Rejects(text: String) {
        #expect(RFC3339.parse(text) == nil)
    }
}
