import Foundation
import OrderDomain
import Receipts
import Testing

@testable import Server

/// What the receiver keeps of a body that is not a notification: bounded in bytes, valid
/// text, no NUL (PostgreSQL's text refuses it), whatever the sender put in it.
@Suite("Notification decoder: what is kept of a hostile body")
struct NotificationDecoderTests {
    let decoder = NotificationDecoder(trust: TrustRoots(apple: []), bundleIds: ["com.example.game"])

    @Test("A garbage body of 60 KB of two-byte characters and NULs is kept as at most 16 KiB of valid text without NUL")
    func garbageIsBounded() {
        let body = String(repeating: "é\u{0}", count: 20_000)  // 60,000 bytes, 100,000 once each NUL is U+FFFD
        let kept = decoder.garbage(body, endpoint: .production, via: .receiver)
        #expect(kept.rejection == .notSignedPayloadBody)
        #expect(kept.raw.utf8.count <= NotificationDecoder.rejectedRawLimit)
        #expect(kept.raw.utf8.count > NotificationDecoder.rejectedRawLimit - 4)
        #expect(!kept.raw.unicodeScalars.contains("\u{0}"))
        #expect(kept.raw.hasPrefix("é\u{FFFD}é\u{FFFD}"))
    }

    @Test("A signedPayload that is no JWS is rejected with why, and kept bounded")
    func notAJWS() async {
        let payload = String(repeating: "x.", count: 30_000)
        let kept = await decoder.decode(signedPayload: payload, endpoint: .production, via: .receiver)
        guard case .notSigned(let why) = kept.rejection else {
            Issue.record("kept as \(String(describing: kept.rejection))")
            return
        }
        #expect(why.contains("3 dot-separated parts"))
        #expect(kept.raw.utf8.count == NotificationDecoder.rejectedRawLimit)
    }
}
