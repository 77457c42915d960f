import Foundation
import Receipts
import Testing
import X509

@testable import AppStoreSimulator

/// The simulator's receipts and JWS pass the real checks with its root, and only with it.
@Suite struct SigningTests {
    static let created = Date(timeIntervalSince1970: 1_790_000_000)

    static func sampleReceipt() -> AppReceipt {
        AppReceipt(
            receiptType: "Production", appItemId: 1_234_567_890, bundleId: "com.iapdesk.demo", appVersion: "2.1",
            receiptCreationDate: created, originalApplicationVersion: "1.0",
            inAppPurchases: [
                InAppPurchase(
                    quantity: 1, productId: "gems.100", transactionId: "2000000000000001", originalTransactionId: "2000000000000001",
                    purchaseDate: created.addingTimeInterval(-60), originalPurchaseDate: created.addingTimeInterval(-60), productType: 1),
                InAppPurchase(
                    quantity: 1, productId: "vip.monthly", transactionId: "2000000000000002", originalTransactionId: "2000000000000000",
                    purchaseDate: created.addingTimeInterval(-30), productType: 3,
                    expiresDate: created.addingTimeInterval(30 * 86_400), webOrderLineItemId: 340_000_558_053_130,
                    isTrialPeriod: false, isInIntroOfferPeriod: true),
            ])
    }

    @Test func mintedReceiptDecodesToWhatWasMinted() throws {
        let authority = try CertificateAuthority()
        let base64 = try ReceiptMinter(authority: authority).mint(Self.sampleReceipt())
        let decoded = try AppReceiptDecoder.decode(base64: base64)
        var expected = Self.sampleReceipt()
        // An empty 1712 ("not cancelled") is not a typed field; everything else round-trips.
        let unknown = decoded.receipt.inAppPurchases.flatMap { $0.otherAttributes }
        #expect(unknown.isEmpty)
        expected.otherAttributes = decoded.receipt.otherAttributes
        #expect(decoded.receipt == expected)
        #expect(decoded.container.certificates.count == 3)
    }

    @Test func mintedReceiptVerifiesOnlyWithTheSimulatorRoot() async throws {
        let authority = try CertificateAuthority()
        let decoded = try AppReceiptDecoder.decode(base64: try ReceiptMinter(authority: authority).mint(Self.sampleReceipt()))
        let trusted = await decoded.verifySignature(trust: TrustRoots(apple: [authority.root]))
        #expect(trusted.isVerified, "\(trusted.summary)")
        #expect(
            trusted.chain.map(\.commonName) == [
                "iapdesk App Store Simulator Receipt Signing", "iapdesk App Store Simulator WWDR CA", "iapdesk App Store Simulator Root CA",
            ])
        #expect(trusted.validationTime == Self.created)
        let stranger = try CertificateAuthority(name: "Someone Else")
        #expect(!(await decoded.verifySignature(trust: TrustRoots(apple: [stranger.root]))).isVerified)
        #expect(!(await decoded.verifySignature(trust: .none)).isVerified)
    }

    /// Random serials start with a set bit half the time, and DER then adds a 0x00 that the
    /// parsed certificate's serial does not show: the signer must still be found (a bug
    /// this test caught).
    @Test func signersAreFoundWhateverTheirSerial() async throws {
        for _ in 0..<16 {
            let authority = try CertificateAuthority()
            let decoded = try AppReceiptDecoder.decode(base64: try ReceiptMinter(authority: authority).mint(Self.sampleReceipt()))
            let verdict = await decoded.verifySignature(trust: TrustRoots(apple: [authority.root]))
            #expect(verdict.isVerified, "\(verdict.summary)")
        }
    }

    @Test func aReceiptAlteredAfterMintingFailsItsSignature() async throws {
        let authority = try CertificateAuthority()
        let base64 = try ReceiptMinter(authority: authority).mint(Self.sampleReceipt())
        var der = Array(try #require(Data(base64Encoded: base64)))
        let needle = Array("gems.100".utf8)
        let at = try #require(der.indices.first { der[$0...].starts(with: needle) })
        der[at + 5] = UInt8(ascii: "9")  // gems.900
        let decoded = try AppReceiptDecoder.decode(der: der)
        #expect(decoded.receipt.inAppPurchases.first?.productId == "gems.900")
        let verdict = await decoded.verifySignature(trust: TrustRoots(apple: [authority.root]))
        #expect(verdict.reason?.contains("altered") == true, "\(verdict.summary)")
    }

    struct Transaction: Encodable {
        var transactionId = "2000000000000002"
        var originalTransactionId = "2000000000000000"
        var bundleId = "com.iapdesk.demo"
        var productId = "vip.monthly"
        var signedDate = 1_790_000_000_000.0
        var environment = "Production"
    }

    @Test func mintedJWSVerifiesWithTheRootAndChecksTheBundle() async throws {
        let authority = try CertificateAuthority()
        let jws = try JWS(compact: try JWSMinter(authority: authority).sign(Transaction()))
        let trust = TrustRoots(apple: [authority.root])
        let transaction = try await jws.verified(as: JWSTransaction.self, trust: trust, bundleId: "com.iapdesk.demo")
        #expect(transaction.productId == "vip.monthly")
        #expect(transaction.signedDate?.milliseconds == 1_790_000_000_000)
        await #expect(throws: ReceiptError.self) {
            try await jws.verified(as: JWSTransaction.self, trust: trust, bundleId: "com.other.game")
        }
        await #expect(throws: ReceiptError.self) {
            try await jws.verified(as: JWSTransaction.self, trust: TrustRoots(apple: [try CertificateAuthority().root]), bundleId: nil)
        }
    }

    @Test(arguments: [0, 1, 127, 128, 255, 256, -1, -128, -129, 340_000_558_053_130, Int64.max, Int64.min] as [Int64])
    func integersRoundTripThroughTheEncoder(value: Int64) throws {
        let encoded = ReceiptPayloadEncoder.integer(value)
        let reader = BERReader(encoded)
        #expect(try reader.int64(try reader.root()) == value)
    }
}
