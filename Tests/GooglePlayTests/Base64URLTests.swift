import Foundation
import Testing
import WebTokens

/// JSON Web Tokens' base64url, swapped byte by byte from Foundation's base64.
@Suite("Base64url")
struct Base64URLTests {
    @Test("Every length round-trips; the URL alphabet and no padding are written; RFC 4648's vectors read")
    func roundTrip() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...67 {
            let data = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let text = Base64URL.encode(data)
            #expect(!text.contains("+") && !text.contains("/") && !text.contains("="))
            #expect(Base64URL.decode(text) == data, "length \(length)")
        }
        #expect(Base64URL.encode(Data([0xFB, 0xFF])) == "-_8")
        #expect(Base64URL.decode("Zm9vYmE") == Data("fooba".utf8))
        #expect(Base64URL.decode("not base64!") == nil)
    }
}
