import Foundation
import Testing

@testable import Receipts

/// The byte-level paths that replaced Foundation's string calls on a notification's way in
/// keep their meaning: whitespace trimmed as before, a payload that is not a JSON object
/// refused as before.
@Suite("Text on the fast path")
struct TextFastPathTests {
    @Test("Whitespace and line breaks are trimmed at both ends only, Unicode spaces too; text of spaces alone is empty")
    func trimmed() {
        #expect("  \n\tabc def \r\n".trimmedOfWhitespace == "abc def")
        #expect("\u{00A0}x\u{2003}".trimmedOfWhitespace == "x")
        #expect("   ".trimmedOfWhitespace.isEmpty && "".trimmedOfWhitespace.isEmpty)
        #expect("é".trimmedOfWhitespace == "é")
        for text in ["  a\u{0301}b \n", "\n{\"k\": 1}\n", "x"] {
            #expect(String(text.trimmedOfWhitespace) == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text)")
        }
    }

    private func compact(payload: String) -> String {
        [#"{"alg":"ES256"}"#, payload, "sig"].map { Base64.encodeURL(Array($0.utf8)) }.joined(separator: ".")
    }

    @Test("A JWS with whitespace around it reads; one whose payload is not a JSON object is refused as malformed")
    func payloadShape() throws {
        let jws = try JWS(compact: "\n  " + compact(payload: #"{"a":[1,2],"b":"c"}"#) + " \r\n")
        #expect(jws.payload == Array(#"{"a":[1,2],"b":"c"}"#.utf8) && jws.header.alg == "ES256")
        for payload in ["[1]", #""text""#, "12", #"{"a":"#, "{} trailing", ""] {
            #expect(throws: ReceiptError.self, "\(payload)") { try JWS(compact: compact(payload: payload)) }
        }
    }
}
