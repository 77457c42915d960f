import Foundation
import TestSupport
import Testing

@testable import Receipts

@Suite(.needsFixtures) struct JWSTests {
    func jws(_ name: String) throws -> JWS {
        let text = try Fixtures.text("jws/\(name)")
        return try JWS(compact: text)
    }

    func realNotification() throws -> JWS {
        let data = try Fixtures.data("jws/aporat__test-notification-signed-payload_REAL-APPLE-SIGNED_sandbox_2022.json")
        let envelope = try JSONDecoder().decode([String: String].self, from: data)
        return try JWS(compact: try #require(envelope["signedPayload"]))
    }

    @Test func realAppleNotificationVerifiesToRootG3AtItsSignedDate() async throws {
        let jws = try realNotification()
        let trust = try TestTrust.apple()
        let verdict = await jws.verify(trust: trust)
        #expect(verdict.isVerified, "\(verdict.summary)")
        #expect(
            verdict.chain.map(\.commonName) == [
                "Prod ECC Mac App Store and iTunes Store Receipt Signing",
                "Apple Worldwide Developer Relations Certification Authority",
                "Apple Root CA - G3",
            ])
        // The leaf expired in 2023: the chain is checked at signedDate, as Apple's library does offline.
        let checkedAt = try #require(verdict.validationTime).timeIntervalSince1970
        #expect(abs(checkedAt - 1_662_122_492) < 1)  // 2022-09-02T12:41:32Z
        let notification = try await jws.verified(as: ServerNotification.self, trust: trust, bundleId: "com.Abilities")
        #expect(notification.notificationType == "TEST")
        #expect(notification.notificationUUID == "5e09dcfc-205e-4ea1-9883-96676f394992")
        #expect(notification.data?.environment == "Sandbox")
        #expect(notification.version == "2.0")
    }

    @Test func theReceiptRootDoesNotAnchorJWS() async throws {
        let jws = try realNotification()
        let root = try TestTrust.certificates(TestTrust.appleRootName)
        let verdict = await jws.verify(trust: TrustRoots(apple: root))
        #expect(!verdict.isVerified)
    }

    @Test func aTamperedPayloadIsABadSignature() async throws {
        let jws = try realNotification()
        let trust = try TestTrust.apple()
        let parts = try #require(String(bytes: jws.signingInput, encoding: .utf8)).split(separator: ".")
        let forgedPayload = Data(#"{"notificationType":"REFUND","data":{"bundleId":"com.Abilities"}}"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let signature = Data(jws.signature).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let forged = try JWS(compact: "\(parts[0]).\(forgedPayload).\(signature)")
        await #expect(throws: ReceiptError.jwsRejected("the ES256 signature does not match the leaf certificate: altered or forged")) {
            try await forged.verified(as: ServerNotification.self, trust: trust, bundleId: nil)
        }
    }

    /// Apple's own library signs its mocks with a test CA whose certificates name no keys;
    /// its strict verifier refuses them (its tests turn strict checks off), and so does iapdesk.
    @Test func mockTransactionFromATestCAWithoutKeyIdentifiersIsRefusedAsApplesStrictVerifierRefusesIt() async throws {
        let jws = try jws("asslswift__mock-transactionInfo.jws")
        let testCA = try TestTrust.certificates(TestTrust.testCAName)
        let verdict = await jws.verify(trust: TrustRoots(apple: testCA))
        #expect(verdict.reason?.contains("Missing Authority Key Identifier") == true, "\(verdict.reason ?? "trusted")")
        let payload = try jws.decodePayload(JWSTransaction.self)
        #expect(payload.bundleId == "com.example" && payload.environment == "Sandbox")
        #expect(payload.signedDate?.milliseconds == 1_672_956_154_000)
    }

    @Test func aMissingX5CIsRejectedWithThatReason() async throws {
        let jws = try jws("asslswift__mock-missingX5CHeaderClaim.jws")
        let testCA = try TestTrust.certificates(TestTrust.testCAName)
        await #expect(throws: ReceiptError.jwsRejected("the header has no x5c certificate chain")) {
            try await jws.verified(as: ServerNotification.self, trust: TrustRoots(apple: testCA), bundleId: "com.example")
        }
    }

    @Test func xcodeTransactionDecodesFractionalDatesAndIsNotTrustedByDefault() async throws {
        let jws = try jws("asslswift__xcode-signed-transaction.jws")
        let trust = try TestTrust.appleAndXcode()
        #expect(jws.header.kid == "Apple_Xcode_Key")
        #expect(jws.header.x5c?.count == 1)
        let transaction = try jws.decodePayload(JWSTransaction.self)
        #expect(transaction.productId == "pass.premium")
        #expect(transaction.transactionId == "0")
        #expect(transaction.type == "Auto-Renewable Subscription")
        #expect(transaction.environment == "Xcode")
        #expect(transaction.purchaseDate?.milliseconds == 1_697_679_936_050)
        #expect(transaction.expiresDate?.milliseconds == 1_700_358_336_050)
        // Its self-signed key is not the receipt StoreKit certificate: never trusted unless pinned.
        let verdict = await jws.verify(trust: trust)
        #expect(verdict.reason?.contains("StoreKit Testing in Xcode") == true)
        // Pinning the embedded certificate makes it trusted: the signature itself is valid.
        let pinned = try #require(jws.header.x5c?.first.flatMap { Data(base64Encoded: $0) })
        let path = Scratch.url("xcode-\(UUID().uuidString).der").path
        #expect(FileManager.default.createFile(atPath: path, contents: pinned))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let pinnedVerdict = await jws.verify(trust: TrustRoots(xcode: try TrustRoots.certificates(inFile: path)))
        #expect(pinnedVerdict.isVerified, "\(pinnedVerdict.summary)")
    }

    @Test func xcodeRenewalInfoAndAppTransaction() throws {
        let renewal = try jws("asslswift__xcode-signed-renewal-info.jws")
        let app = try jws("asslswift__xcode-signed-app-transaction.jws")
        let info = try renewal.decodePayload(JWSRenewalInfo.self)
        #expect(info.autoRenewStatus == 1)
        #expect(info.autoRenewProductId == "pass.premium")
        #expect(info.originalTransactionId == "0")
        #expect(JWSKind.of(renewal) == .renewalInfo)
        let appTransaction = try app.decodePayload(JWSAppTransaction.self)
        #expect(appTransaction.receiptType == "Xcode")
        #expect(appTransaction.bundleId == "com.example.naturelab.backyardbirds.example")
        #expect(appTransaction.receiptCreationDate?.milliseconds == 1_697_680_122_257)
        #expect(JWSKind.of(app) == .appTransaction)
    }

    @Test(arguments: ["", "a.b", "a.b.c.d", "!!!.eyJ9.sig", "eyJhbGciOiJFUzI1NiJ9.bm90IGpzb24.c2ln"])
    func malformedCompactFormsAreErrors(text: String) {
        #expect(throws: ReceiptError.self) { try JWS(compact: text) }
    }
}
