import Foundation
import TestSupport
import Testing

@testable import Receipts

/// A header met before is not decoded again, and nothing else is taken on trust: each JWS
/// under it is checked as if it were the first.
@Suite(.needsFixtures) struct KnownHeadersTests {
    func realText() throws -> String {
        let data = try Fixtures.data("jws/aporat__test-notification-signed-payload_REAL-APPLE-SIGNED_sandbox_2022.json")
        return try #require(try JSONDecoder().decode([String: String].self, from: data)["signedPayload"])
    }

    static func base64URL(_ bytes: some DataProtocol) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
    }

    @Test func aKnownHeaderGivesTheSameVerdictAndAForgeryUnderItIsRefused() async throws {
        let text = try realText()
        let trust = try TestTrust.apple()
        let first = await (try JWS(compact: text)).verify(trust: trust)
        let again = await (try JWS(compact: text)).verify(trust: trust)
        #expect(first.isVerified && again.isVerified, "\(again.summary)")
        #expect(again.chain.map(\.commonName) == first.chain.map(\.commonName) && again.validationTime == first.validationTime)
        // The same header, the signature of another message: refused.
        let parts = text.split(separator: ".")
        let otherSignature = Self.base64URL(Array(repeating: UInt8(7), count: 64))
        let forged = try JWS(compact: "\(parts[0]).\(parts[1]).\(otherSignature)")
        #expect(await forged.verify(trust: trust).reason == "the ES256 signature does not match the leaf certificate: altered or forged")
    }

    @Test func aHeaderOfTheSameLengthIsReadForItself() async throws {
        let text = try realText()
        let parts = text.split(separator: ".")
        let x5c = try #require(try JWS(compact: text).header.x5c)
        // Two headers as long as each other: Apple's chain, and its first two certificates swapped.
        func header(_ chain: [String]) -> String {
            Self.base64URL(Data(#"{"alg":"ES256","x5c":["\#(chain.joined(separator: #"",""#))"]}"#.utf8))
        }
        let swapped = [x5c[1], x5c[0]] + x5c.dropFirst(2)
        #expect(header(x5c).utf8.count == header(swapped).utf8.count)
        let inOrder = try JWS(compact: "\(header(x5c)).\(parts[1]).\(parts[2])")
        let outOfOrder = try JWS(compact: "\(header(swapped)).\(parts[1]).\(parts[2])")
        #expect(inOrder.header.x5c == x5c)
        #expect(outOfOrder.header.x5c == swapped, "a header of the same length was taken for the one met before")
        #expect(await outOfOrder.verify(trust: try TestTrust.apple()).isVerified == false)
    }

    @Test func inventedHeadersDoNotCrowdOutApplesOrTakeItsVerdict() async throws {
        let text = try realText()
        let trust = try TestTrust.apple()
        let parts = text.split(separator: ".")
        for index in 0..<40 {
            let header = Self.base64URL(Data(#"{"alg":"ES256","x5c":["bm90IGEgY2VydGlmaWNhdGU\#(index)"]}"#.utf8))
            let invented = try JWS(compact: "\(header).\(parts[1]).\(parts[2])")
            #expect(await invented.verify(trust: trust).reason == "x5c certificate 1 does not parse")
        }
        #expect(await (try JWS(compact: text)).verify(trust: trust).isVerified)
    }
}
