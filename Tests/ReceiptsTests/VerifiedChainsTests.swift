import Foundation
import TestSupport
import Testing
import X509

@testable import Receipts

/// A chain found trusted is kept with the span its certificates are valid for: kept or not,
/// the answer at any instant is the one a full check gives.
@Suite(.needsFixtures) struct VerifiedChainsTests {
    /// The real 2022 notification's leaf, intermediate and root (G3).
    func appleChain() throws -> (leaf: Certificate, intermediates: [Certificate]) {
        let data = try Fixtures.data("jws/aporat__test-notification-signed-payload_REAL-APPLE-SIGNED_sandbox_2022.json")
        let envelope = try JSONDecoder().decode([String: String].self, from: data)
        let jws = try JWS(compact: try #require(envelope["signedPayload"]))
        let certificates = try #require(jws.header.x5c).map { encoded in
            try Certificate(derEncoded: Array(try #require(Data(base64Encoded: encoded))))
        }
        return (certificates[0], Array(certificates.dropFirst()))
    }

    func isTrusted(_ outcome: ChainCheck.Outcome) -> Bool {
        if case .trusted = outcome { return true }
        return false
    }

    @Test func aKeptChainIsStillRefusedOutsideItsValidity() async throws {
        let (leaf, intermediates) = try appleChain()
        let anchors = try TestTrust.apple().apple
        let signed = Date(timeIntervalSince1970: 1_662_122_492)  // the notification's signedDate, 2022
        #expect(isTrusted(await ChainCheck.check(leaf: leaf, intermediates: intermediates, anchors: anchors, at: signed)))
        // Kept now; after the leaf expired it is refused all the same, and before it was issued.
        let afterExpiry = leaf.notValidAfter.addingTimeInterval(1)
        let beforeIssue = leaf.notValidBefore.addingTimeInterval(-1)
        for instant in [afterExpiry, beforeIssue] {
            let outcome = await ChainCheck.check(leaf: leaf, intermediates: intermediates, anchors: anchors, at: instant)
            guard case .untrusted(let reason) = outcome else {
                Issue.record("trusted at \(instant) though the leaf is valid \(leaf.notValidBefore)–\(leaf.notValidAfter)")
                continue
            }
            #expect(!reason.isEmpty)
        }
        // And trusted again at its own date, from what was kept.
        guard case .trusted(let chain) = await ChainCheck.check(leaf: leaf, intermediates: intermediates, anchors: anchors, at: signed) else {
            Issue.record("the kept chain was not trusted at its own date")
            return
        }
        #expect(chain.map(\.commonName).last == "Apple Root CA - G3")
    }

    @Test func aKeptChainDoesNotVouchUnderOtherAnchors() async throws {
        let (leaf, intermediates) = try appleChain()
        let signed = Date(timeIntervalSince1970: 1_662_122_492)
        #expect(isTrusted(await ChainCheck.check(leaf: leaf, intermediates: intermediates, anchors: try TestTrust.apple().apple, at: signed)))
        // Only the receipts' root (not G3): the same chain, kept above, is refused.
        let receiptRoot = try TestTrust.certificates(TestTrust.appleRootName)
        #expect(!isTrusted(await ChainCheck.check(leaf: leaf, intermediates: intermediates, anchors: receiptRoot, at: signed)))
    }

    @Test func aRefusedChainIsNotKept() async throws {
        let (leaf, intermediates) = try appleChain()
        // Anchors in an order no other test uses, so no test running beside keeps this key.
        let anchors = try TestTrust.certificates(TestTrust.appleRootG3Name) + TestTrust.certificates(TestTrust.appleRootName)
        let late = leaf.notValidAfter.addingTimeInterval(86_400)
        let key = VerifiedChains.Key(leaf: leaf, intermediates: intermediates, anchors: anchors)
        #expect(!isTrusted(await ChainCheck.check(leaf: leaf, intermediates: intermediates, anchors: anchors, at: late)))
        #expect(VerifiedChains.shared.trusted(key, at: leaf.notValidBefore) == nil)
    }
}
